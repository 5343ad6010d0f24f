package config

import (
	"fmt"
	"os"
	"strconv"
)

type Config struct {
	BrokerURL   string
	Topic       string
	GroupID     string
	Concurrency int
	MetricsAddr string
}

// Load reads the environment once at start-up; nothing else in the service reads it.
func Load() (Config, error) {
	cfg := Config{
		BrokerURL:   os.Getenv("RELAY_BROKER_URL"),
		Topic:       getenv("RELAY_TOPIC", "shipments.events.v3"),
		GroupID:     getenv("RELAY_GROUP_ID", "relay"),
		MetricsAddr: getenv("RELAY_METRICS_ADDR", ":9102"),
	}
	if cfg.BrokerURL == "" {
		return cfg, fmt.Errorf("RELAY_BROKER_URL is not set")
	}
	n, err := strconv.Atoi(getenv("RELAY_CONCURRENCY", "8"))
	if err != nil || n < 1 {
		return cfg, fmt.Errorf("RELAY_CONCURRENCY must be a positive integer")
	}
	cfg.Concurrency = n
	return cfg, nil
}

func getenv(key, fallback string) string {
	if v, ok := os.LookupEnv(key); ok {
		return v
	}
	return fallback
}
