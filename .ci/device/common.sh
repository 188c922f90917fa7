# Why: what every script run on the GPU machine does first, sourced from there (the working
# tree's root is the current folder, $OUT the folder whose files come back): unpack the Vulkan
# loader that stage.sh staged, name NVIDIA's driver, put the staged dgcc on PATH, and define
# `step`, which runs one command and keeps what it printed and wrote.
#
# Only a few files come back from $OUT, so the outputs are written to a folder of their own
# and folded into one archive, $OUT/results.tar.gz, after every step: a call that runs out of
# time still brings back every step it finished.
set -uo pipefail
staged=${DGCC_STAGED:-out/device}
[ -x "$staged/bin/dgcc" ] || { echo "no staged dgcc in $staged: run .ci/device/stage.sh where dgcc is built and carry out/device" >&2; exit 2; }
[ -n "${OUT:-}" ] || { echo "OUT is not set: run this through the device tool" >&2; exit 2; }
if [ -z "${DGCC_DEVICE_ICD:-}" ]; then
    for deb in "$staged"/lib/*.deb; do dpkg -x "$deb" /; done
    ldconfig
fi
# DGCC_DEVICE_ICD: another driver manifest, for a dry run of a script on another machine.
export VK_DRIVER_FILES=${DGCC_DEVICE_ICD:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
mkdir -p /tmp/dgcc-bin && cp "$staged/bin/dgcc" /tmp/dgcc-bin/dgcc && chmod +x /tmp/dgcc-bin/dgcc
export PATH=/tmp/dgcc-bin:$PATH
results=$(mktemp -d)
cp "$staged/commit" "$results/commit"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$results/gpu.txt" 2>&1
started=$(date +%s)

# A debugger for where threads wait or crash: gdb, or else the cuda-gdb that the GPU machine's
# image carries (it debugs programs without GPU code too); empty where there is none.
debugger=$(command -v gdb || command -v cuda-gdb || ls /usr/local/cuda*/bin/cuda-gdb 2>/dev/null | head -n 1 || true)

# step NAME CMD...: run CMD with its stdout and stderr in NAME.*, the time and exit status in
# steps.log; a folder NAME that CMD wrote (a bench's --out) joins them; then the archive.
step() {
    local name=$1
    shift
    echo "== $name $(date -u +%FT%TZ) +$(($(date +%s) - started))s: $*" | tee -a "$results/steps.log"
    "$@" > "$results/$name.stdout" 2> "$results/$name.stderr"
    echo "rc=$?" | tee -a "$results/steps.log"
    if [ -d "$name" ]; then mv "$name" "$results/"; fi
    tail -n 2 "$results/$name.stderr" >> "$results/steps.log"
    archive
}

archive() { tar czf "$OUT/results.tar.gz" -C "$results" .; }

# debug_step NAME SECONDS CMD...: `step` with CMD run under the debugger, which prints every
# thread's stack where CMD crashes, stops at `dgcc_threads_hung` (concurrent_instances' hang)
# or is still running after SECONDS (the debugger is interrupted then), and how CMD ended,
# which steps.log gets too. Without a debugger it says so and runs nothing.
debug_step() {
    local name=$1 seconds=$2
    shift 2
    [ -n "$debugger" ] || { echo "$name: no debugger on this machine" | tee -a "$results/steps.log"; return; }
    step "$name" timeout -s INT -k 30 "$seconds" "$debugger" -q -batch -nx -ex "set pagination off" \
        -ex "set confirm off" -ex "set breakpoint pending on" -ex "break dgcc_threads_hung" -ex run \
        -ex "thread apply all bt 40" -ex "info program" -ex kill --args "$@"
    grep -h -e '^\[Inferior 1 .* exited' -e 'received signal' -e 'hit Breakpoint' -e 'stopped with signal' \
        "$results/$name.stdout" >> "$results/steps.log"
    archive
}

# Whether SECONDS more fit in the device tool's 600 s a call, counted from the start.
fits() { [ $(($(date +%s) - started + $1)) -lt 570 ]; }

# The end of a script: the files that hold a validation message, if any, and the last archive.
pack() {
    echo "done +$(($(date +%s) - started))s" >> "$results/steps.log"
    grep -c "Validation Error" "$results"/*.stdout "$results"/*.stderr 2>/dev/null | grep -v ":0$" >> "$results/steps.log"
    archive
}

# pictures OPTION VALUE...: the last frame at 1M objects of the field and of the cubes in each
# ordered mode (mdi, dgc with ordered sequences, the batch), once with `--OPTION VALUE` for each
# VALUE, as "scene | mode | value | MD5" lines (FAILED where the run failed): one MD5 per scene
# where the option changes nothing in the picture.
pictures() {
    local option=$1 scene mode value
    shift
    for scene in field cubes; do
        for mode in "mdi" "dgc --sequences ordered" "dgc --batch"; do
            for value in "$@"; do
                rm -f "$results/picture.png"
                # shellcheck disable=SC2086
                if dgcc run examples/scene.ron --scene "$scene" --objects 1000000 --frames 2 --mode $mode \
                    "--$option" "$value" --png "$results/picture.png" > /dev/null; then
                    echo "$scene | $mode | $value | $(md5sum < "$results/picture.png" | cut -c1-32)"
                else
                    echo "$scene | $mode | $value | FAILED"
                fi
            done
        done
    done
    rm -f "$results/picture.png"
}
