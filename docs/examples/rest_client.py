#!/usr/bin/env python3
"""Trade on a Ringex gateway over REST, follow the orders on the user stream and the book on the market stream.

Subscribes to the book of a symbol, places a limit order, amends it, asks for its state and the open orders, cancels
it and then every order left, following each step on the user stream. The market stream is dropped and opened again
midway: the book is rebuilt from a new snapshot and kept with the updates (gap rule: an update applies only if its
prevSeq is the seq held). At the end the book held is compared with the one GET /api/v1/book gives at the same seq
and printed. Needs Python 3 with requests and websockets (Debian: python3-requests python3-websockets).

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
from decimal import Decimal

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

    def send(self, method, path, document=None):
        body = "" if document is None else json.dumps(document, separators=(",", ":"))
        headers = self.headers(method, path, body)
        if document is not None:
            headers["Content-Type"] = "application/json"
        return requests.request(method, self.url + path, data=body.encode("utf-8"), headers=headers, timeout=10)

    def stream_url(self, path):
        timestamp = str(int(time.time() * 1000))
        signature = self.sign(timestamp, "GET", path)
        ws = self.url.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
        return f"{ws}{path}?key={self.key_id}&timestamp={timestamp}&signature={signature}"


class Book:
    """An L2 book kept from the market stream's snapshot and updates, by the stated gap rule."""

    def __init__(self):
        self.seq = None
        self.bids = {}
        self.asks = {}

    def apply(self, message):
        """Apply a book message; False if it does not follow what is held (subscribe again)."""
        if message["snapshot"]:
            self.bids, self.asks = {}, {}
        elif message["prevSeq"] != self.seq:
            return False
        for side, levels in ((self.bids, message["bids"]), (self.asks, message["asks"])):
            for price, quantity in levels:
                if Decimal(quantity) == 0:
                    side.pop(Decimal(price), None)
                else:
                    side[Decimal(price)] = Decimal(quantity)
        self.seq = message["seq"]
        return True

    def levels(self, depth):
        bids = sorted(self.bids.items(), reverse=True)[:depth]
        asks = sorted(self.asks.items())[:depth]
        return [[str(p), str(q)] for p, q in bids], [[str(p), str(q)] for p, q in asks]


class MarketStream:
    """The market stream of one symbol's book; reconnect() drops the connection and starts from a snapshot again."""

    def __init__(self, api, symbol, depth):
        self.api, self.symbol, self.depth = api, symbol, depth
        self.book = Book()
        self.connection = None

    async def connect(self):
        self.connection = await websockets.connect(self.api.stream_url("/ws/v1/market"))
        await self.connection.send(json.dumps(
            {"op": "subscribe", "channel": "book", "symbol": self.symbol, "depth": self.depth}))
        self.book = Book()
        await self.until(lambda: self.book.seq is not None, "the book's snapshot")

    async def reconnect(self):
        await self.connection.close()
        await self.connect()

    async def until(self, condition, what, timeout_s=20):
        """Read book messages until the condition holds."""
        deadline = time.monotonic() + timeout_s
        while not condition():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise RuntimeError(f"market stream: no {what}")
            message = json.loads(await asyncio.wait_for(self.connection.recv(), remaining))
            if message["type"] == "error":
                raise RuntimeError(f"market stream refused: {message['reason']}")
            if message["type"] == "book" and not self.book.apply(message):
                print("market stream: an update did not follow; subscribing again")
                await self.connection.send(json.dumps({"op": "unsubscribe", "channel": "book", "symbol": self.symbol}))
                await self.connection.send(json.dumps(
                    {"op": "subscribe", "channel": "book", "symbol": self.symbol, "depth": self.depth}))


async def next_event(stream, matches, timeout_s=20):
    """The next user-stream event the predicate accepts; heartbeats and other events are skipped."""
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
    market = MarketStream(api, args.symbol, 10)
    await market.connect()
    print(f"market stream: {args.symbol} book at seq {market.book.seq}")
    async with websockets.connect(api.stream_url("/ws/v1/user")) as stream:
        await next_event(stream, lambda e: e.get("type") == "subscribed")

        instruments = expect(api.send("GET", "/api/v1/instruments"), 200, "instruments")["instruments"]
        if args.symbol not in [i["symbol"] for i in instruments]:
            raise RuntimeError(f"{args.symbol} is not listed: {instruments}")

        price, quantity = Decimal(args.price), Decimal(args.quantity)
        order_id = "py-" + uuid.uuid4().hex[:12]
        placed = expect(api.send("POST", "/api/v1/orders", {
            "symbol": args.symbol, "side": "BUY", "type": "LIMIT", "timeInForce": "GTC",
            "price": args.price, "quantity": args.quantity, "clientOrderId": order_id}), 200, "new order")
        print(f"placed {order_id}: {placed['execType']} {placed['orderStatus']} order {placed['orderId']}")
        await next_event(stream, lambda e: e.get("clientOrderId") == order_id and e.get("execType") == "NEW")
        print(f"user stream: {order_id} NEW")
        await market.until(lambda: market.book.bids.get(price, 0) >= quantity, f"bid at {price}")
        print(f"market stream: bid {price} x {market.book.bids[price]}")

        # Amend: a new price and quantity under a new client order id.
        amended_id = "py-" + uuid.uuid4().hex[:12]
        new_price, new_quantity = price - Decimal("0.25"), quantity + 2
        replaced = expect(api.send("PUT", f"/api/v1/orders/{order_id}", {
            "symbol": args.symbol, "price": str(new_price), "quantity": str(new_quantity),
            "clientOrderId": amended_id}), 200, "replace")
        print(f"amended {order_id} -> {amended_id}: {replaced['execType']} {replaced['price']} x {replaced['quantity']}")
        await next_event(stream, lambda e: e.get("clientOrderId") == amended_id and e.get("execType") == "REPLACED")
        print(f"user stream: {amended_id} REPLACED")

        # The market stream is dropped: the book starts again from a snapshot that holds the amended order.
        await market.reconnect()
        await market.until(lambda: market.book.bids.get(new_price, 0) >= new_quantity, f"bid at {new_price}")
        print(f"market stream: reconnected at seq {market.book.seq}, bid {new_price} x {market.book.bids[new_price]}")

        status = expect(api.send("GET", f"/api/v1/orders/{amended_id}"), 200, "order status")
        print(f"status {amended_id}: {status['orderStatus']} {status['price']} x {status['leavesQuantity']}")
        open_orders = expect(api.send("GET", f"/api/v1/orders?symbol={args.symbol}"), 200, "open orders")["orders"]
        if amended_id not in [o["clientOrderId"] for o in open_orders]:
            raise RuntimeError(f"{amended_id} is not among the open orders: {open_orders}")
        print(f"open orders in {args.symbol}: {len(open_orders)}")

        canceled = expect(api.send("DELETE", f"/api/v1/orders/{amended_id}?symbol={args.symbol}"), 200, "cancel")
        print(f"canceled {amended_id}: {canceled['execType']}")
        await next_event(stream,
                         lambda e: e.get("origClientOrderId") == amended_id and e.get("execType") == "CANCELED")
        print(f"user stream: {amended_id} CANCELED")

        cancelled_all = expect(api.send("DELETE", f"/api/v1/orders?symbol={args.symbol}"), 200, "cancel all")
        print(f"cancel all in {args.symbol}: {cancelled_all['cancelled']} more cancelled")

    # The book held against the gateway's answer at the same sequence.
    for _ in range(50):
        rest = expect(api.send("GET", f"/api/v1/book?symbol={args.symbol}&depth=10"), 200, "book")
        await market.until(lambda: market.book.seq >= rest["seq"], f"seq {rest['seq']}")
        if market.book.seq == rest["seq"]:
            bids, asks = market.book.levels(10)
            normal = lambda levels: [[str(Decimal(p)), str(Decimal(q))] for p, q in levels]
            if (bids, asks) != (normal(rest["bids"]), normal(rest["asks"])):
                raise RuntimeError(f"the stream's book {bids} {asks} is not the gateway's {rest}")
            break
    else:
        raise RuntimeError("the book kept moving; no common sequence")
    await market.connection.close()
    print("book: " + json.dumps({"symbol": args.symbol, "seq": market.book.seq, "bids": bids, "asks": asks}))


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
