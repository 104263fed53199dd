//! Writing a result file: `-` or none is stdout; a new or regular file is
//! replaced atomically (a temporary file beside it, persisted over it, with
//! the old file's permissions); a device, FIFO or other special file is
//! written through, never replaced; a symbolic link is followed; the input
//! file itself is never overwritten; a read-only file is replaced only when
//! asked (`--force`, as `cp -f`).

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::error::AppError;
use super::input::display_name;

/// Whether a read-only file may be replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replace {
    /// Only a file we may write (the default, as `cp`).
    Writable,
    /// Any regular file (`--force`).
    Force,
}

impl Replace {
    /// [`Replace::Force`] when `--force` was given.
    pub fn forced(force: bool) -> Replace {
        if force {
            Replace::Force
        } else {
            Replace::Writable
        }
    }
}

/// Writes what `write` produces to `path` (stdout for `None` or `-`),
/// refusing to write over any of `inputs`. A path that cannot be written
/// (its directory missing or not writable, a read-only file without
/// `--force`) is an error naming it (exit 2) before anything is written.
pub fn write_output(
    path: Option<&Path>,
    inputs: &[&Path],
    replace: Replace,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), AppError> {
    let Some(path) = path.filter(|p| p.as_os_str() != "-") else {
        let mut out = BufWriter::new(io::stdout().lock());
        return write(&mut out).and_then(|()| out.flush()).map_err(AppError::write("stdout"));
    };
    let name = display_name(path);
    let target = resolve_links(path)?;
    let meta = match fs::metadata(&target) {
        Ok(meta) => Some(meta),
        Err(err) if err.kind() == io::ErrorKind::NotFound => None,
        Err(err) => return Err(AppError::Usage(format!("cannot write {name}: {err}"))),
    };
    if let Some(meta) = &meta {
        if inputs.iter().any(|input| same_file(input, meta)) {
            return Err(AppError::Usage(format!("{name} is an input of this run: refusing to overwrite it")));
        }
        if meta.is_dir() {
            return Err(AppError::Usage(format!("{name} is a directory: expected a file to write")));
        }
        if meta.is_file() && replace == Replace::Writable && !writable(&target, meta) {
            return Err(AppError::Usage(format!("{name} is read-only: refusing to replace it (--force replaces it)")));
        }
    }
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => PathBuf::from("."),
    };
    if meta.as_ref().is_none_or(|m| m.is_file()) && !dir.is_dir() {
        let dir_name = display_name(&dir);
        return Err(AppError::Usage(format!("cannot write {name}: the directory {dir_name} does not exist")));
    }
    match meta {
        Some(meta) if !meta.is_file() => {
            // A device, FIFO or socket: write to it as it is.
            let file = fs::OpenOptions::new().write(true).open(&target).map_err(AppError::write(name.clone()))?;
            let mut out = BufWriter::new(file);
            write(&mut out).and_then(|()| out.flush()).map_err(AppError::write(name))
        }
        meta => {
            let temp = temp_file(&dir).map_err(|err| {
                let why = match err.kind() {
                    io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
                    _ => err.to_string(),
                };
                // The error names the target, not the temporary file.
                AppError::Usage(format!("cannot write {name}: cannot create a file in {}: {why}", display_name(&dir)))
            })?;
            write_atomically(temp, &target, meta.map(|m| m.permissions()), write).map_err(AppError::write(name))
        }
    }
}

/// Whether the file `meta` describes may be written by us: not marked
/// read-only, and open for writing (which leaves it unchanged).
fn writable(path: &Path, meta: &fs::Metadata) -> bool {
    !meta.permissions().readonly() && fs::OpenOptions::new().write(true).open(path).is_ok()
}

/// `path` with every symbolic link along it followed; a link to nowhere is
/// an error, not a file to create in its place.
fn resolve_links(path: &Path) -> Result<PathBuf, AppError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path).map_err(|err| {
            AppError::Usage(format!("{} is a symbolic link that leads nowhere: {err}", display_name(path)))
        }),
        _ => Ok(path.to_owned()),
    }
}

/// Whether `input` is the file `meta` describes.
fn same_file(input: &Path, meta: &fs::Metadata) -> bool {
    let Ok(input) = fs::metadata(input) else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        input.dev() == meta.dev() && input.ino() == meta.ino()
    }
    #[cfg(not(unix))]
    {
        input.len() == meta.len() && input.modified().ok() == meta.modified().ok()
    }
}

/// Writes through a temporary file beside `path`, then persists it over
/// `path`, so an error never leaves a truncated file. The new file gets
/// `permissions` (those of the file it replaces), or the usual ones for a
/// new file (0666 less the umask).
fn write_atomically(
    mut temp: tempfile::NamedTempFile,
    path: &Path,
    permissions: Option<fs::Permissions>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    {
        let mut out = BufWriter::new(temp.as_file_mut());
        write(&mut out)?;
        out.flush()?;
    }
    if let Some(permissions) = permissions {
        temp.as_file().set_permissions(permissions)?;
    }
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|err| err.error)?;
    Ok(())
}

/// A new temporary file in `dir`, with the usual permissions of a new file.
fn temp_file(dir: &Path) -> io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".satsudoku-").suffix(".tmp");
    #[cfg(unix)]
    let fresh = {
        use std::os::unix::fs::PermissionsExt;
        fs::Permissions::from_mode(0o666)
    };
    #[cfg(unix)]
    builder.permissions(fresh);
    builder.tempfile_in(dir).map_err(|err| io::Error::new(err.kind(), err.kind().to_string()))
}
