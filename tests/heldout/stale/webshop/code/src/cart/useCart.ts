import { useQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { createHttpClient } from "../api/http-client";

export interface CartLine {
  sku: string;
  quantity: number;
  unitPriceCents: number;
}

const client = createHttpClient();

export function useCart() {
  const queryClient = useQueryClient();
  const cart = useQuery({ queryKey: ["cart"], queryFn: () => client.get<CartLine[]>("/v2/cart") });
  const addLine = useMutation({
    mutationFn: (line: CartLine) => client.post<CartLine[]>("/v2/cart/lines", line),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["cart"] }),
  });
  return { cart, addLine };
}
