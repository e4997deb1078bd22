#!/usr/bin/env python3
"""Peak resident memory of the release `lodestone watch --simulate` dashboard (goal: at most 16 MB).

The dashboard runs on a pseudo-terminal of 100x32 for SECONDS (default 20) with the simulated
receiver near Edam, so the gazetteer names the nearest place and the town beside it on every fix;
then it is stopped with SIGTERM and its peak RSS read from wait4's rusage. One JSON line:
  {"benchmark": "watch.rss", "peak_rss_mb": ..., "goal_mb": 16, ...}
Usage: watch_rss.py LODESTONE [SECONDS]
"""
import fcntl, json, os, pty, select, signal, struct, sys, termios, time


def peak_rss(argv, seconds):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update({"TERM": "xterm-256color", "LANG": "C.UTF-8"})
        os.execv(argv[0], argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
    end = time.monotonic() + seconds
    received = 0
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                received += len(os.read(fd, 65536))
            except OSError:
                break
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 5
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
        try:
            select.select([fd], [], [], 0.1)
            os.read(fd, 65536)
        except OSError:
            time.sleep(0.05)
    os.close(fd)
    return usage.ru_maxrss / 1024.0, received, status


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: watch_rss.py LODESTONE [SECONDS]")
    lodestone = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
    argv = [lodestone, "watch", "--simulate", "--location", "52.52,5.07"]
    if not os.access(lodestone, os.X_OK):
        sys.exit(f"watch_rss: {lodestone} is not built")
    rss, received, status = peak_rss(argv, seconds)
    print(json.dumps({"benchmark": "watch.rss", "peak_rss_mb": round(rss, 1), "goal_mb": 16, "seconds": seconds,
                      "terminal": "100x32", "screen_bytes": received, "command": " ".join(argv[1:]),
                      "exit_status": status}))


if __name__ == "__main__":
    main()
