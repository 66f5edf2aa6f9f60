# Sourced by .ci/sanitize.sh and .ci/valgrind.sh, which run pytest from
# their build directory: repo_paths REPO ARG... sets ARGS to the arguments
# with each test path (relative to the repository) made absolute.
repo_paths() {
    local repo=$1 arg
    shift
    ARGS=()
    for arg in "$@"; do
        if [[ $arg != -* && $arg != /* && -e $repo/${arg%%::*} ]]; then
            arg=$repo/$arg
        fi
        ARGS+=("$arg")
    done
}
