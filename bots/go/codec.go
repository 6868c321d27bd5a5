package main

// Debian's grpc-go 1.33 marshals with the old golang/protobuf 1.3.5, which panics (nil pointer in
// makeOneOfMarshaler) on messages from the current protoc-gen-go. Registering a "proto" codec that
// calls the current google.golang.org/protobuf replaces it for every call of this process.

import (
	"google.golang.org/grpc/encoding"
	"google.golang.org/protobuf/proto"
)

type protoCodec struct{}

func (protoCodec) Marshal(v interface{}) ([]byte, error) { return proto.Marshal(v.(proto.Message)) }

func (protoCodec) Unmarshal(data []byte, v interface{}) error {
	return proto.Unmarshal(data, v.(proto.Message))
}

func (protoCodec) Name() string { return "proto" }

func init() { encoding.RegisterCodec(protoCodec{}) }
