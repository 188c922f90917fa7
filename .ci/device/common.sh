# Why: what every script run on the GPU machine does first, sourced from there (the working
# tree's root is the current folder, $OUT the folder whose files come back): unpack the Vulkan
# loader that stage.sh staged, name NVIDIA's driver, put the staged dgcc on PATH, and define
# `step`, which runs one command with its output kept under $OUT.
#
# Only a few files come back from $OUT, so `pack` at the end of a script folds everything
# into one archive, $OUT/results.tar.gz.
set -uo pipefail
staged=${DGCC_STAGED:-out/device}
[ -x "$staged/bin/dgcc" ] || { echo "no staged dgcc in $staged: run .ci/device/stage.sh here first and carry out" >&2; exit 2; }
[ -n "${OUT:-}" ] || { echo "OUT is not set: run this through the device tool" >&2; exit 2; }
if [ -z "${DGCC_DEVICE_ICD:-}" ]; then
    for deb in "$staged"/lib/*.deb; do dpkg -x "$deb" /; done
    ldconfig
fi
# DGCC_DEVICE_ICD: another driver manifest, for a dry run of a script on another machine.
export VK_DRIVER_FILES=${DGCC_DEVICE_ICD:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
mkdir -p /tmp/dgcc-bin && cp "$staged/bin/dgcc" /tmp/dgcc-bin/dgcc && chmod +x /tmp/dgcc-bin/dgcc
export PATH=/tmp/dgcc-bin:$PATH
cp "$staged/commit" "$OUT/commit"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
started=$(date +%s)

# step NAME CMD...: run CMD with its stdout and stderr in $OUT/NAME.*, the time and exit status
# in $OUT/steps.log; a folder NAME that CMD wrote (a bench's --out) moves into $OUT.
step() {
    local name=$1
    shift
    echo "== $name $(date -u +%FT%TZ) +$(($(date +%s) - started))s: $*" | tee -a "$OUT/steps.log"
    "$@" > "$OUT/$name.stdout" 2> "$OUT/$name.stderr"
    echo "rc=$?" | tee -a "$OUT/steps.log"
    if [ -d "$name" ]; then mv "$name" "$OUT/"; fi
    tail -n 2 "$OUT/$name.stderr" >> "$OUT/steps.log"
}

# Whether SECONDS more fit in the device tool's 600 s a call, counted from the start.
fits() { [ $(($(date +%s) - started + $1)) -lt 570 ]; }

# Validation messages anywhere in the outputs, then everything into one archive.
pack() {
    echo "done +$(($(date +%s) - started))s" >> "$OUT/steps.log"
    grep -c "Validation Error" "$OUT"/*.stdout "$OUT"/*.stderr 2>/dev/null | grep -v ":0$" >> "$OUT/steps.log"
    (cd "$OUT" && tar czf /tmp/dgcc-results.tar.gz . && find . -mindepth 1 -delete && mv /tmp/dgcc-results.tar.gz results.tar.gz)
}
