"""Arena referee: the engine core, the five games and the gRPC referee service."""
