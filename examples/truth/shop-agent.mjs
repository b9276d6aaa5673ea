#!/usr/bin/env node
// A shopping agent: it looks up the lamp's price, tells the customer, and orders it at that price.
// SHOP_AGENT=naive trusts the first answer. SHOP_AGENT=careful cross-checks the item's price with
// the catalog, and when the two disagree reads the item again and keeps the price both sources
// confirm (it never quotes a price it could not confirm). Reads AGENTCHAOS_SHOP_URL. Prints the
// quote (naive) or fixed words (careful). Exit 0 when the order is placed, 1 otherwise.
import { request } from "../http-client.mjs";

const shop = (process.env.AGENTCHAOS_SHOP_URL ?? "").replace(/\/+$/, "");
const careful = process.env.SHOP_AGENT === "careful";
const getJson = async (path) => (await request(`${shop}${path}`)).json();

async function confirmedPrice() {
  const item = await getJson("/items/lamp");
  if (!careful) return item.price;
  const catalog = await getJson("/catalog");
  const listed = catalog.items.find((entry) => entry.sku === "lamp")?.price;
  if (listed === item.price) return item.price;
  const again = await getJson("/items/lamp");
  if (again.price === listed) return listed;
  throw new Error("the shop's price could not be confirmed");
}

try {
  const price = await confirmedPrice();
  if (careful) console.log("Price confirmed by the item and the catalog");
  else console.log(`The desk lamp costs ${price} dollars`);
  const response = await request(`${shop}/orders`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ sku: "lamp", quantity: 1, quoted_price: price }),
  });
  if (response.status !== 201) throw new Error(`status ${response.status}`);
  console.log("Order placed");
} catch {
  process.stderr.write("shop-agent: no order placed\n");
  process.exitCode = 1;
}
