import { createHttpClient } from "../api/http-client";

export const SESSION_TTL_SECONDS = 3600;

export interface SessionToken {
  value: string;
  expiresAt: number;
}

export async function issueSessionToken(email: string, password: string): Promise<SessionToken> {
  const client = createHttpClient();
  const { token } = await client.post<{ token: string }>("/v2/sessions", { email, password });
  return { value: token, expiresAt: Date.now() + SESSION_TTL_SECONDS * 1000 };
}

export function isExpired(token: SessionToken, now: number = Date.now()): boolean {
  return token.expiresAt <= now;
}
