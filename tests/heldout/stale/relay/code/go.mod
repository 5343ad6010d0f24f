module github.com/northwind/relay

go 1.23

require (
	github.com/segmentio/kafka-go v0.4.47
	github.com/prometheus/client_golang v1.20.5
	golang.org/x/sync v0.8.0
	google.golang.org/protobuf v1.35.1
)
