#!/usr/bin/env python3
"""The workload contract (docs/metrics.md), kept by a server threadbench did not write: Python's asyncio, stdlib only.

GET / answers the page; every Nth request to / is answered after DELAY_MS; GET /health answers 200; anything
else 404. No /stats and no /metrics: compare runs it with its cost columns n/a. Prints "listening on PORT".
Usage: asyncio_server.py PAGE [--port 0] [--delay-every 10] [--delay-ms 2000]
"""
import argparse
import asyncio

parser = argparse.ArgumentParser()
parser.add_argument("page")
parser.add_argument("--port", type=int, default=0)
parser.add_argument("--delay-every", type=int, default=10)
parser.add_argument("--delay-ms", type=int, default=2000)
args = parser.parse_args()

with open(args.page, "rb") as f:
    PAGE = f.read()
counted = 0


def answer(status, content_type, body):
    head = f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode("ascii") + body


async def serve(reader, writer):
    global counted
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            method, target = head.split(b" ", 2)[:2]
            if target == b"/" and method in (b"GET", b"HEAD"):
                counted += 1
                if args.delay_every and counted % args.delay_every == 0:
                    await asyncio.sleep(args.delay_ms / 1000)
                whole = answer("200 OK", "text/html; charset=utf-8", PAGE)
                writer.write(whole if method == b"GET" else whole[: len(whole) - len(PAGE)])
            elif target == b"/health":
                writer.write(answer("200 OK", "application/json", b'{"status":"UP"}'))
            else:
                writer.write(answer("404 Not Found", "text/plain; charset=utf-8", b"not found\n"))
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, ValueError):
        pass
    finally:
        writer.close()


async def main():
    server = await asyncio.start_server(serve, "127.0.0.1", args.port, backlog=1024)
    print("listening on", server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
