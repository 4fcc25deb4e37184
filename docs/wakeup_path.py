#!/usr/bin/env python3
"""The physical reference for a round trip through two node agents on this machine: processes
that each block in a read (no spinning) and pass a one-byte token over socketpairs.

  python3 docs/wakeup_path.py [iterations]

prints the median round trip of a ping-pong between two processes (2 wake-ups) and of a token
going rank A -> agent 1 -> agent 2 -> rank B and back (4 processes, 6 wake-ups)."""
import os
import socket
import statistics
import sys
import time


def line(n, iters):
    """Median round trip through n processes in a line, the last echoing, every hop a blocking read."""
    links = [socket.socketpair() for _ in range(n - 1)]  # link i joins process i and i + 1
    for i in range(1, n):
        if os.fork() == 0:
            left = links[i - 1][1]
            right = links[i][0] if i < n - 1 else None
            while True:
                b = left.recv(1)
                if not b or b == b'q':
                    if right is not None:
                        right.send(b'q')
                    os._exit(0)
                if right is not None:
                    right.send(b)
                    b = right.recv(1)
                left.send(b)
    a = links[0][0]
    times = []
    for _ in range(iters):
        t = time.perf_counter_ns()
        a.send(b'x')
        a.recv(1)
        times.append(time.perf_counter_ns() - t)
    a.send(b'q')
    for _ in range(n - 1):
        os.wait()
    return statistics.median(times[iters // 10:]) / 1000


iters = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
print(f"two processes, 2 wake-ups per round trip: median {line(2, iters):.1f} us")
print(f"rank, agent, agent, rank, 6 wake-ups per round trip: median {line(4, iters):.1f} us")
