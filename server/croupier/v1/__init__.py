"""Generated protobuf messages of the croupier.v1 contract (`make proto`)."""
