# Sourced by the project's scripts: free loopback ports, and a server jar started and waited for.

# Prints N (default 1) distinct free loopback ports on one line.
free_ports() {
  python3 -c '
import socket, sys
sockets = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in sockets: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in sockets))' "${1:-1}"
}

# await_url URL PID NAME LOG: returns once GET URL answers 2xx; fails, with the end of LOG, when the
# process PID exits first or nothing answers within 60 s.
await_url() {
  local url=$1 pid=$2 name=$3 log=$4
  for _ in $(seq 1 300); do
    curl -fso /dev/null "$url" && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "$(basename "$0"): $name exited before $url answered: $(tail -n 1 "$log" 2>/dev/null) (log: $log)" >&2
      return 1
    fi
    sleep 0.2
  done
  echo "$(basename "$0"): $name did not answer $url within 60 s (log: $log)" >&2
  return 1
}

# start_server NAME JAR PORT LOG [SERVER OPTIONS...]: the jar on 127.0.0.1:PORT with compare's JVM
# options (-Xms512m -Xmx2g), its output in LOG. Sets server_pid; returns once GET /health answers.
start_server() {
  local name=$1 jar=$2 port=$3 log=$4
  shift 4
  java -Xms512m -Xmx2g -jar "$jar" --host 127.0.0.1 --port "$port" "$@" >"$log" 2>&1 &
  server_pid=$!
  await_url "http://127.0.0.1:$port/health" "$server_pid" "$name" "$log" || { kill "$server_pid" 2>/dev/null; return 1; }
}
