export const env = {
  apiBaseUrl: import.meta.env.VITE_API_BASE_URL ?? "http://localhost:8080",
  sentryDsn: import.meta.env.VITE_SENTRY_DSN ?? "",
  checkoutV2: import.meta.env.VITE_FEATURE_CHECKOUT_V2 === "true",
};
