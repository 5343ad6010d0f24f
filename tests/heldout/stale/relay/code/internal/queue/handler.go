package queue

import (
	"context"

	"github.com/segmentio/kafka-go"
)

// handle forwards one shipment event to the carrier webhook.
func handle(ctx context.Context, m kafka.Message) error {
	return forwardToCarrier(ctx, m.Key, m.Value)
}
