#!/usr/bin/env bash
set -euo pipefail
# Tags the current main and lets CI build and deploy the tag.
version=$(node -p "require('./package.json').version")
git tag -a "v${version}" -m "release v${version}"
git push origin "v${version}"
