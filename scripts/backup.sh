#!/usr/bin/env bash
# Backs up 안심신고: the PostgreSQL database (pg_dump, custom format) and the disk file store (tar).
#
#   DATABASE_URL=postgres://… DATA_DIR=./data scripts/backup.sh [output-dir]
#
# Writes <output-dir>/ansim-<UTC timestamp>/ with database.dump, files.tar and SHA256SUMS, and prints that path.
# The database is dumped first: a file uploaded while the files are being archived is at worst an extra file no
# row refers to; check a backup with scripts/restore-check.mjs. With FILE_STORE=s3 the files live in the bucket:
# back that up with the object store's own tools (docs/operations.md, "Backup and restore").
# ENCRYPTION_KEY is not in the backup, and the backup cannot be read without it: keep it apart, in a safe place.
set -euo pipefail

: "${DATABASE_URL:?DATABASE_URL must name the PostgreSQL database to back up}"
out_root="${1:-./backups}"
files_dir="${FILES_DIR:-${DATA_DIR:-./data}/files}"

command -v pg_dump >/dev/null || { echo "backup: pg_dump not found (install the PostgreSQL client)" >&2; exit 1; }

# Reports, statements and evidence: nobody but the owner may read the backup.
umask 077
target="$out_root/ansim-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$target"

pg_dump --format=custom --no-owner --no-acl --file="$target/database.dump" "$DATABASE_URL"

if [ "${FILE_STORE:-disk}" = "s3" ]; then
  echo "backup: FILE_STORE=s3 — files are in the bucket; mirror it separately (see docs/operations.md)" >&2
  tar -cf "$target/files.tar" --files-from /dev/null
elif [ -d "$files_dir" ]; then
  # .tmp holds uploads in progress, never referenced by a row.
  tar -C "$files_dir" --exclude=./.tmp -cf "$target/files.tar" .
else
  echo "backup: no file store at $files_dir — archiving no files" >&2
  tar -cf "$target/files.tar" --files-from /dev/null
fi

(cd "$target" && sha256sum database.dump files.tar >SHA256SUMS)
echo "$target"
