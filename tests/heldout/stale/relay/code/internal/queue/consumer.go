package queue

import (
	"context"

	"github.com/segmentio/kafka-go"
	"golang.org/x/sync/errgroup"
)

type Consumer struct {
	reader *kafka.Reader
}

func NewConsumer(brokerURL, topic, groupID string) *Consumer {
	return &Consumer{reader: kafka.NewReader(kafka.ReaderConfig{
		Brokers: []string{brokerURL},
		Topic:   topic,
		GroupID: groupID,
	})}
}

// Run fetches messages and hands them to `concurrency` handlers; offsets are
// committed only after a handler returns nil, so a crash re-delivers.
func (c *Consumer) Run(ctx context.Context, concurrency int) error {
	messages := make(chan kafka.Message)
	group, ctx := errgroup.WithContext(ctx)
	for i := 0; i < concurrency; i++ {
		group.Go(func() error {
			for m := range messages {
				if err := handle(ctx, m); err != nil {
					return err
				}
				if err := c.reader.CommitMessages(ctx, m); err != nil {
					return err
				}
			}
			return nil
		})
	}
	group.Go(func() error {
		defer close(messages)
		for {
			m, err := c.reader.FetchMessage(ctx)
			if err != nil {
				return err
			}
			messages <- m
		}
	})
	return group.Wait()
}
