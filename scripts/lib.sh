# Sourced by the project's scripts: jars rebuilt when stale, free loopback ports, and a server jar started and
# waited for.

# ensure_jars MODULE...: builds MODULE's jar (MODULE/target/MODULE.jar) when it is missing or older than any source
# it is built from (pom.xml, hello.html, its module and the modules it depends on, outside target/), so that no
# script measures an old build. Needs the JDK set up (scripts/jdk.sh).
ensure_jars() {
  local module stale=()
  declare -A sources=([undertow-server]="common undertow-server" [vertx-server]="common vertx-server"
    [loadtest]="common server-process undertow-server vertx-server loadtest")
  for module in "$@"; do
    local jar="$module/target/$module.jar"
    # shellcheck disable=SC2086 # the module list splits on purpose
    if [ ! -f "$jar" ] || [ -n "$(find pom.xml hello.html ${sources[$module]:-$module} -newer "$jar" \
        -not -path '*/target/*' -type f -print -quit)" ]; then
      stale+=("$module")
    fi
  done
  [ ${#stale[@]} -gt 0 ] || return 0
  local modules
  modules=$(IFS=,; echo "${stale[*]}")
  echo "$(basename "$0"): building ${stale[*]} (sources newer than the jar, or no jar)..." >&2
  ./mvnw -B -q -pl "$modules" -am package -DskipTests
}

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

# cpu_sets [SERVER_LIST] [GENERATOR_LIST]: prints "SERVER GENERATOR", two disjoint CPU lists (0-1,4-5) as
# `loadtest compare` chooses them with --server-cpus and --generator-cpus (`loadtest cpus`, where the rule lives;
# the jar is built first when needed). Prints nothing when compare would not pin (one CPU, no taskset), the reason
# on stderr; a bad list: one line on stderr, a non-zero exit.
cpu_sets() {
  local options=()
  [ -z "${1:-}" ] || options+=(--server-cpus "$1")
  [ -z "${2:-}" ] || options+=(--generator-cpus "$2")
  ensure_jars loadtest >&2
  java -jar loadtest/target/loadtest.jar cpus "${options[@]}"
}

# start_server NAME JAR PORT LOG [SERVER OPTIONS...]: the jar on 127.0.0.1:PORT with compare's JVM
# options (-Xms512m -Xmx2g -XX:+UseG1GC), its output in LOG. Sets server_pid; returns once GET /health answers.
# With server_cpus set (a CPU list), as compare does: on those CPUs only, and told how many.
start_server() {
  local name=$1 jar=$2 port=$3 log=$4 launch=()
  shift 4
  if [ -n "${server_cpus:-}" ]; then
    launch=(taskset -c "$server_cpus" java -XX:ActiveProcessorCount="$(taskset -c "$server_cpus" nproc)")
  else
    launch=(java)
  fi
  "${launch[@]}" -Xms512m -Xmx2g -XX:+UseG1GC -jar "$jar" --host 127.0.0.1 --port "$port" "$@" >"$log" 2>&1 &
  server_pid=$!
  await_url "http://127.0.0.1:$port/health" "$server_pid" "$name" "$log" || { kill "$server_pid" 2>/dev/null; return 1; }
}
