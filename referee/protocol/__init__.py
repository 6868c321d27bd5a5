"""Generated gRPC stubs of ``proto/arena/v1`` (regenerate with ``python -m referee.protocol.gen``).

``bot_pb2`` / ``bot_pb2_grpc``: the bot service; ``organizer_pb2`` / ``organizer_pb2_grpc``:
the organizer service; ``developer_pb2`` / ``developer_pb2_grpc``: the developer service
(``arena devserver``, bot submission). Do not edit the generated files by hand.
"""
