"""The shipped Public Suffix List snapshot (data/public_suffix_list.dat):
written by tools/update_suffix_list.py, do not edit."""
SOURCE = 'publicsuffixlist 1.1.2.20261023 (PyPI)'
VERSION = '2026-10-22_08-36-41_UTC'
COMMIT = '8437e5262f13305f94087abe699b4fe2be1d1de8'
TAKEN = '2026-11-25'
SHA256 = '0232f4df0831911356e8ee1f4d5c3b6b12c0ed3f6bd66b0f81c8ab5d3d49e9ca'
