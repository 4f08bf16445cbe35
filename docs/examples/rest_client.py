#!/usr/bin/env python3
"""Trade on a Ringex gateway over REST and follow the orders on the WebSocket user stream.

Places a limit order, waits for the engine's acknowledgement on the user stream, cancels the order and waits for
the cancel there too. Needs Python 3 with requests and websockets (Debian: python3-requests python3-websockets).

    RINGEX_KEY=rk-alice-trading RINGEX_SECRET=<base64 secret> \
        python3 rest_client.py --url http://localhost:8480 --symbol BTC-USD --price 99.50 --quantity 10

Exit status 0 when every step was answered as expected, 1 otherwise (the reason on stderr).
"""
import argparse
import asyncio
import base64
import hashlib
import hmac
import json
import os
import sys
import time
import uuid

import requests
import websockets


class RingexRest:
    """Signs each request: hex HMAC-SHA256 of timestamp + METHOD + path-with-query + body under the key's secret."""

    def __init__(self, url, key_id, secret_base64):
        self.url = url.rstrip("/")
        self.key_id = key_id
        self.secret = base64.b64decode(secret_base64)

    def sign(self, timestamp, method, path, body=""):
        payload = (timestamp + method + path + body).encode("utf-8")
        return hmac.new(self.secret, payload, hashlib.sha256).hexdigest()

    def headers(self, method, path, body=""):
        timestamp = str(int(time.time() * 1000))
        return {
            "X-RINGEX-KEY": self.key_id,
            "X-RINGEX-TIMESTAMP": timestamp,
            "X-RINGEX-SIGNATURE": self.sign(timestamp, method, path, body),
        }

    def get(self, path):
        return requests.get(self.url + path, headers=self.headers("GET", path), timeout=10)

    def post(self, path, document):
        body = json.dumps(document, separators=(",", ":"))
        headers = self.headers("POST", path, body)
        headers["Content-Type"] = "application/json"
        return requests.post(self.url + path, data=body.encode("utf-8"), headers=headers, timeout=10)

    def delete(self, path):
        return requests.delete(self.url + path, headers=self.headers("DELETE", path), timeout=10)

    def user_stream_url(self):
        timestamp = str(int(time.time() * 1000))
        signature = self.sign(timestamp, "GET", "/ws/v1/user")
        ws = self.url.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
        return f"{ws}/ws/v1/user?key={self.key_id}&timestamp={timestamp}&signature={signature}"


async def next_event(stream, matches, timeout_s=20):
    """The next event the predicate accepts; heartbeats and other events are skipped."""
    deadline = time.monotonic() + timeout_s
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise RuntimeError("no matching event on the user stream")
        event = json.loads(await asyncio.wait_for(stream.recv(), remaining))
        if matches(event):
            return event


def expect(response, status, what):
    if response.status_code != status:
        raise RuntimeError(f"{what}: HTTP {response.status_code} {response.text}")
    return response.json()


async def trade(args):
    api = RingexRest(args.url, os.environ["RINGEX_KEY"], os.environ["RINGEX_SECRET"])
    async with websockets.connect(api.user_stream_url()) as stream:
        await next_event(stream, lambda e: e.get("type") == "subscribed")

        instruments = expect(api.get("/api/v1/instruments"), 200, "instruments")["instruments"]
        if args.symbol not in [i["symbol"] for i in instruments]:
            raise RuntimeError(f"{args.symbol} is not listed: {instruments}")

        order_id = "py-" + uuid.uuid4().hex[:12]
        placed = expect(api.post("/api/v1/orders", {
            "symbol": args.symbol, "side": "BUY", "type": "LIMIT", "timeInForce": "GTC",
            "price": args.price, "quantity": args.quantity, "clientOrderId": order_id}), 200, "new order")
        print(f"placed {order_id}: {placed['execType']} {placed['orderStatus']} order {placed['orderId']}")
        await next_event(stream, lambda e: e.get("clientOrderId") == order_id and e.get("execType") == "NEW")
        print(f"user stream: {order_id} NEW")

        canceled = expect(api.delete(f"/api/v1/orders/{order_id}?symbol={args.symbol}"), 200, "cancel")
        print(f"canceled {order_id}: {canceled['execType']}")
        await next_event(stream,
                         lambda e: e.get("origClientOrderId") == order_id and e.get("execType") == "CANCELED")
        print(f"user stream: {order_id} CANCELED")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://localhost:8480")
    parser.add_argument("--symbol", default="BTC-USD")
    parser.add_argument("--price", default="99.50")
    parser.add_argument("--quantity", default="10")
    args = parser.parse_args()
    try:
        asyncio.run(trade(args))
    except Exception as problem:  # every failure ends the example with its reason
        print(f"failed: {problem}", file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
