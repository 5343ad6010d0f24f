package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"

	"github.com/northwind/relay/internal/config"
	"github.com/northwind/relay/internal/queue"
)

func main() {
	cfg, err := config.Load()
	if err != nil {
		slog.Error("config", "err", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	consumer := queue.NewConsumer(cfg.BrokerURL, cfg.Topic, cfg.GroupID)
	if err := consumer.Run(ctx, cfg.Concurrency); err != nil {
		slog.Error("consumer stopped", "err", err)
		os.Exit(1)
	}
}
