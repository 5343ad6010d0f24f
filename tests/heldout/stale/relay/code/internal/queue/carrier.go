package queue

import (
	"bytes"
	"context"
	"net/http"
	"time"
)

const carrierTimeout = 5 * time.Second

var carrierURL = "https://carriers.northwind.dev/v2/events"

func forwardToCarrier(ctx context.Context, key, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, carrierTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, carrierURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", string(key))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
