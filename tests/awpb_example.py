# Read an .awpb stream with the standard protobuf package (docs/format.md).
import sys
from google.protobuf.internal.decoder import _DecodeVarint32
import agewalk_pb2  # protoc --python_out=. src/event/agewalk.proto

data = open(sys.argv[1], "rb").read()
assert data[:8] == b"AWPB\x01\r\n\x1a", "not an .awpb stream"
pos, msgs = 8, []
while pos < len(data):
    size, pos = _DecodeVarint32(data, pos)
    msgs.append(data[pos:pos + size]); pos += size
header = agewalk_pb2.Header.FromString(msgs[0])
events = [agewalk_pb2.Event.FromString(m) for m in msgs[1:]]
kinds = [e.WhichOneof("kind") for e in events]
print(f"{len(header.nodes)} nodes, {len(events)} events, first {kinds[0]}, pid {getattr(events[0], kinds[0]).pid}")
