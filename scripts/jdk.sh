# Sourced by the project's scripts: points JAVA_HOME and PATH at a JDK >= 22, which the build needs (common's
# multi-release jar compiles one class, ContextSwitches over the FFM API, with --release 22; the rest is release 21).
# Takes $JAVA_HOME when it is new enough, else the newest JDK >= 22 under /usr/lib/jvm.

java_feature() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'; }

pick_jdk() {
  local candidate version best="" best_version=0
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/javac" ] || continue
    version=$(java_feature "$candidate")
    [ "${version:-0}" -ge 22 ] 2>/dev/null || continue
    if [ "$candidate" = "${JAVA_HOME:-}" ]; then best=$candidate; break; fi
    if [ "$version" -gt "$best_version" ]; then best=$candidate; best_version=$version; fi
  done
  if [ -z "$best" ]; then
    echo "error: no JDK 22 or newer found (set JAVA_HOME, or install one under /usr/lib/jvm)" >&2
    return 1
  fi
  export JAVA_HOME=$best
  export PATH="$JAVA_HOME/bin:$PATH"
}

pick_jdk
