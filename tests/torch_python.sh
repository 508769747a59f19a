# torch_python.sh: sourced by the tests that run Python (examples/, bench/):
# sets PYTHON to an interpreter with the pinned torch, transformers and peft
# (requirements-torch2.txt), made by `make venv`. It is $PEAKFIT_PYTHON
# when set, else this checkout's .venv, else the .venv of the main worktree
# this one was added from (git worktree add shares it). Where there is none
# the test skips and says so: make test makes the venv where pip can reach
# its index, and CI's make venv fails the run where it cannot.
_torch_python_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
_torch_python_candidates() {
    [ -n "${PEAKFIT_PYTHON:-}" ] && { echo "$PEAKFIT_PYTHON"; return; }
    echo "$_torch_python_root/.venv/bin/python"
    local common
    common=$(git -C "$_torch_python_root" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) &&
        echo "$(dirname "$common")/.venv/bin/python"
}
PYTHON=
while read -r candidate; do
    if [ -x "$candidate" ] && "$candidate" -c 'import torch, transformers, peft' 2>/dev/null; then
        PYTHON=$candidate
        break
    fi
done < <(_torch_python_candidates)
[ -n "$PYTHON" ] || skip "no Python with torch, transformers and peft: run 'make venv' (or set PEAKFIT_PYTHON)"
export HF_HUB_OFFLINE=1
