#!/usr/bin/env bash
# make-corpus.sh DIR: writes the malformed safetensors files that EXPECTED
# lists into DIR (generated, not committed: one nests 50,000 deep).
set -euo pipefail
dir=$1
mkdir -p "$dir"

# st FILE HEADER DATA_BYTES [HEADER_LENGTH]: an 8-byte little-endian
# header length (the header's own unless given), the header, zero bytes.
st() {
    local len=${4:-${#2}} le="" i
    for i in 0 1 2 3 4 5 6 7; do le+=$(printf '\\x%02x' $(((len >> (8 * i)) & 255))); done
    { printf "$le"; printf '%s' "$2"; head -c "$3" /dev/zero; } >"$dir/$1"
}
f32() { printf '"%s":{"dtype":"F32","shape":[%s],"data_offsets":[%s]}' "$1" "$2" "$3"; }

st negative-begin.safetensors "{$(f32 a 2 -1000000000,-999999992)}" 8
st small-negative-begin.safetensors "{$(f32 a 2 -8,0)}" 8
st end-past-data.safetensors "{$(f32 a 4 0,16)}" 8
st begin-after-end.safetensors "{$(f32 a 0 8,0)}" 8
st overlap.safetensors "{$(f32 a 2 0,8),$(f32 b 2 4,12)}" 12
st duplicate-name.safetensors "{$(f32 a 2 0,8),
$(f32 a 2 8,16)}" 16
st wrong-byte-count.safetensors "{$(f32 a 3 0,8)}" 8
st overflowing-shape.safetensors "{$(f32 a 4294967296,4294967296 0,8)}" 8
st negative-shape.safetensors "{$(f32 a -2 0,8)}" 8
st header-past-end.safetensors "{$(f32 a 2 0,8)}" 8 1000
st huge-header-length.safetensors "{}" 0 18446744073709551615
st unknown-dtype.safetensors '{"a":{"dtype":"F8","shape":[2],"data_offsets":[0,2]}}' 2
st extra-key.safetensors '{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8],"x":1}}' 8
st bad-metadata.safetensors "{\"__metadata__\":{\"format\":1},$(f32 a 2 0,8)}" 8
st not-an-object.safetensors '[1,2]' 0
st syntax-error.safetensors '{"a":}' 0
st deep-nesting.safetensors "{\"__metadata__\":$(printf '[%.0s' {1..50000})$(printf ']%.0s' {1..50000})}" 0
printf 'abc' >"$dir/too-short.safetensors"
