#!/usr/bin/env bash
# The newest CPythons, which pyenv does not have here: Debian's unstable suite
# ships them as packages. A minimal sid system is made with debootstrap in a
# folder that is kept between runs (made again when absent or incomplete);
# in it, for each interpreter, the sdist is installed with the test extra in
# a fresh venv and the whole suite runs from the unpacked sdist.
#
#   .ci/newpythons.sh SDIST_TARBALL VERSION...      e.g. ... pctcodec-0.1.0.tar.gz 3.14 3.15
#
# Environment: NEWPYTHONS_ROOT (default /var/cache/pctcodec-ci/sid) is where
# the system is kept; PCTCODEC_TESTDATA the test data folder, bound into it.
# Needs root (debootstrap, chroot, mount).
set -euo pipefail

TARBALL=$(readlink -f "${1:?usage: newpythons.sh SDIST_TARBALL VERSION...}")
shift
VERSIONS=("$@")
ROOT=${NEWPYTHONS_ROOT:-/var/cache/pctcodec-ci/sid}
PACKAGES=gcc,g++,libc6-dev
for v in "${VERSIONS[@]}"; do
    PACKAGES+=",python$v-dev,python$v-venv"
done

# The Debian mirror this machine's apt uses.
mirror() {
    local uri
    uri=$(grep -h -o -E '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' \
        /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
        grep -o -E 'https?://[^ ]+' | head -n 1 || true)
    echo "${uri:-http://deb.debian.org/debian}"
}

# The system, made once; the marker file says it was made whole, and with
# which packages (a system made with more is kept).
make_root() {
    local marker=$ROOT/.pctcodec-packages package missing=0
    if [[ -f $marker ]]; then
        for package in ${PACKAGES//,/ }; do
            grep -qx -e "$package" <(tr ',' '\n' <"$marker") || missing=1
        done
        if ((missing == 0)); then
            echo "sid system kept in $ROOT"
            return 0
        fi
    fi
    command -v debootstrap >/dev/null || {
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
    }
    echo "making a sid system in $ROOT with $PACKAGES from $(mirror)"
    rm -rf "$ROOT"
    mkdir -p "$ROOT"
    if ! debootstrap --variant=minbase --include="$PACKAGES" sid "$ROOT" "$(mirror)" >"$ROOT.log" 2>&1; then
        tail -n 30 "$ROOT.log"
        return 1
    fi
    echo "$PACKAGES" >"$marker"
}

make_root
# pip in the system reaches the package index with this machine's CA bundle
# and resolver.
cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/ca-certificates.crt"
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"

WORK=$ROOT/work
MOUNTS=()
cleanup() {
    local m
    for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT
rm -rf "$WORK"
mkdir -p "$WORK/sdist" "$WORK/testdata"
tar -xzf "$TARBALL" -C "$WORK/sdist" --strip-components=1
mount -t proc proc "$ROOT/proc" && MOUNTS+=("$ROOT/proc")
if [[ -n ${PCTCODEC_TESTDATA:-} && -d $PCTCODEC_TESTDATA ]]; then
    mount --bind "$PCTCODEC_TESTDATA" "$WORK/testdata" && MOUNTS+=("$WORK/testdata")
fi

status=0
for v in "${VERSIONS[@]}"; do
    echo "========== Python $v (Debian sid): pip install '.[test]' && pytest"
    # A clean environment: none of this machine's pip settings (local wheel
    # folders) mean anything in there.
    if ! chroot "$ROOT" env -i PATH=/usr/bin:/bin HOME=/root CI=true LANG=C.UTF-8 \
        HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-ci} PYTHONHASHSEED=0 PCTCODEC_WERROR=1 \
        PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PCTCODEC_TESTDATA=/work/testdata \
        /bin/bash -euo pipefail -c '
            v=$1
            rm -rf /work/venv-$v
            python$v -m venv /work/venv-$v
            /work/venv-$v/bin/python --version
            cd /work/sdist
            /work/venv-$v/bin/pip install -q ".[test]"
            /work/venv-$v/bin/pytest -p no:cacheprovider
        ' newpythons "$v"; then
        echo "########## Python $v: FAILED"
        status=1
    fi
done
exit $status
