//! Saving files so that a crash, a kill or a full disk never leaves a half-written asset: the
//! one atomic-write path of the whole workspace (assets, the editor's files, CSV output).
//!
//! Every save writes a temporary file `.steergraph-<pid>-<n>.tmp` in the target's folder,
//! flushes it to disk, renames it over the target and then flushes the folder, so after a
//! crash the target holds either the old or the new content, never a mix.
//!
//! What a save keeps of the file it replaces:
//!
//! - **Symbolic links** are followed: the file the link points to is replaced, the link stays.
//! - **Permissions** (the Unix mode, or the read-only flag elsewhere) are copied to the new file.
//! - **Hard links are not kept.** A rename gives the path a new file, so the other names of a
//!   multiply-linked file keep the old content. Writing in place would keep the links but lose
//!   atomicity (a crash would leave every name with a truncated file), and losing an asset is
//!   worse than losing a link; use a symbolic link to share one asset under several names.
//! - **Only regular files are replaced.** A device (`/dev/null`), FIFO, socket or folder at the
//!   path is refused with [`SaveError::NotARegularFile`] and left alone.
//!
//! Temporary files of this program older than [`STALE_TEMPORARY_AGE`] in the target's folder
//! are left-overs of a killed save and are removed on the next save into that folder.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::format::SaveError;

/// A temporary file of this program older than this is a left-over of a killed save.
pub const STALE_TEMPORARY_AGE: Duration = Duration::from_secs(60 * 60);

const TEMPORARY_PREFIX: &str = ".steergraph-";
const TEMPORARY_SUFFIX: &str = ".tmp";

/// Most symbolic links followed from one path (as Linux's `ELOOP` limit).
const MAX_LINK_DEPTH: usize = 40;

/// Counts saves, to name each temporary file uniquely within the process.
static SAVES: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` atomically (see the module documentation): the file holds either
/// its old content or `bytes`, whatever happens. A failure leaves the existing file untouched.
///
/// # Examples
///
/// ```
/// # let folder = std::env::temp_dir().join(format!("steergraph-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&folder).unwrap();
/// let path = folder.join("notes.txt");
/// graph_runtime::write_atomically(&path, "first")?;
/// graph_runtime::write_atomically(&path, b"second")?;
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
/// # std::fs::remove_dir_all(&folder).unwrap();
/// # Ok::<(), graph_runtime::SaveError>(())
/// ```
pub fn write_atomically(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), SaveError> {
    write_atomically_with(path, |writer| writer.write_all(bytes.as_ref()))
}

/// Like [`write_atomically`], but the content is streamed by `write` (a CSV of a long
/// simulation, say). If `write` fails, the existing file is untouched and its error returned.
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), SaveError> {
    Pending::create(path)?.fill(write)?.commit()
}

/// Saves several files as one: every file is written to a temporary file first, and only when
/// all of them are written are they renamed into place, in the order given (put the file that
/// refers to the others last: a scene after its flow fields).
///
/// If writing any temporary file fails, nothing is replaced and every temporary file is
/// removed. A rename can still fail after earlier ones succeeded (the disk vanished, say); the
/// error, [`SaveError::PartlySaved`], then lists exactly which files were replaced.
///
/// Each `(path, bytes)` pair is saved as [`write_atomically`] saves one file.
pub fn write_all_atomically<P, B>(files: &[(P, B)]) -> Result<(), SaveError>
where
    P: AsRef<Path>,
    B: AsRef<[u8]>,
{
    let mut pending = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        // On error the already written temporary files are dropped, which removes them.
        let file = Pending::create(path.as_ref())?;
        pending.push(file.fill(|writer| writer.write_all(bytes.as_ref()))?);
    }
    let mut saved: Vec<String> = Vec::new();
    let mut pending = pending.into_iter();
    while let Some(file) = pending.next() {
        let shown = file.shown.clone();
        if let Err(error) = file.commit() {
            if saved.is_empty() {
                return Err(error);
            }
            let not_saved = std::iter::once(shown)
                .chain(pending.map(|rest| rest.shown.clone()))
                .collect();
            return Err(SaveError::PartlySaved {
                saved,
                not_saved,
                error: Box::new(error),
            });
        }
        saved.push(shown);
    }
    Ok(())
}

/// A temporary file beside its target, removed on drop unless committed.
struct Pending {
    /// The path as the caller gave it, for messages.
    shown: String,
    /// The file actually replaced (symbolic links followed).
    target: PathBuf,
    directory: PathBuf,
    temporary: PathBuf,
    file: Option<File>,
}

impl Pending {
    fn create(path: &Path) -> Result<Self, SaveError> {
        let shown = path.display().to_string();
        let io = |source| SaveError::Io {
            path: shown.clone(),
            source,
        };
        let target = follow_links(path).map_err(io)?;
        let existing = match fs::metadata(&target) {
            Ok(metadata) => Some(metadata),
            Err(error) if error.kind() == io::ErrorKind::NotFound => None,
            Err(error) => return Err(io(error)),
        };
        if let Some(metadata) = &existing
            && !metadata.is_file()
        {
            return Err(SaveError::NotARegularFile {
                path: shown,
                kind: file_kind(metadata),
            });
        }
        let directory = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        remove_stale_temporaries(&directory);
        // A short name, unique per process and call, so any legal file name can be saved.
        let save = SAVES.fetch_add(1, Ordering::Relaxed);
        let temporary = directory.join(format!(
            "{TEMPORARY_PREFIX}{}-{save}{TEMPORARY_SUFFIX}",
            std::process::id()
        ));
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)
            .map_err(io)?;
        let pending = Self {
            shown,
            target,
            directory,
            temporary,
            file: Some(file),
        };
        if let (Some(metadata), Some(file)) = (&existing, &pending.file) {
            file.set_permissions(metadata.permissions())
                .map_err(|source| pending.error(source))?;
        }
        Ok(pending)
    }

    fn error(&self, source: io::Error) -> SaveError {
        SaveError::Io {
            path: self.shown.clone(),
            source,
        }
    }

    /// Writes the content with `write` and flushes it to disk.
    fn fill(
        mut self,
        write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<Self, SaveError> {
        let Some(file) = self.file.take() else {
            return Err(self.error(io::Error::other("the temporary file is already closed")));
        };
        let mut writer = io::BufWriter::new(file);
        let result = write(&mut writer).and_then(|()| {
            let file = writer
                .into_inner()
                .map_err(io::IntoInnerError::into_error)?;
            file.sync_all()?;
            Ok(file)
        });
        match result {
            Ok(file) => {
                self.file = Some(file);
                Ok(self)
            }
            Err(source) => Err(self.error(source)),
        }
    }

    /// Renames the temporary file over the target and flushes the folder.
    fn commit(mut self) -> Result<(), SaveError> {
        drop(self.file.take());
        fs::rename(&self.temporary, &self.target).map_err(|source| self.error(source))?;
        // The rename is done: nothing is left to remove on drop.
        self.temporary = PathBuf::new();
        sync_directory(&self.directory).map_err(|source| SaveError::FolderNotSynced {
            path: self.shown.clone(),
            source,
        })
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.temporary.as_os_str().is_empty() {
            drop(self.file.take());
            // Best effort: the temporary file is ours and useless now.
            let _ = fs::remove_file(&self.temporary);
        }
    }
}

/// `path` with every symbolic link (of the last component) followed to the file it names,
/// which may not exist yet.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINK_DEPTH {
        match fs::symlink_metadata(&current) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(parent) if link.is_relative() => parent.join(link),
                    _ => link,
                };
            }
            Ok(_) => return Ok(current),
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(error) => return Err(error),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINK_DEPTH} symbolic links in a row"
    )))
}

/// What a non-regular file is, in words.
fn file_kind(metadata: &fs::Metadata) -> &'static str {
    let kind = metadata.file_type();
    if kind.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Whether `name` is a temporary file name of this program.
fn is_temporary_name(name: &str) -> bool {
    name.len() > TEMPORARY_PREFIX.len() + TEMPORARY_SUFFIX.len()
        && name.starts_with(TEMPORARY_PREFIX)
        && name.ends_with(TEMPORARY_SUFFIX)
}

/// Removes this program's temporary files in `directory` that are older than
/// [`STALE_TEMPORARY_AGE`] (left by a killed save). Best effort: failures are ignored, since
/// they never affect the save itself.
fn remove_stale_temporaries(directory: &Path) {
    let Ok(entries) = fs::read_dir(directory) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_str().is_some_and(is_temporary_name) {
            continue;
        }
        // `DirEntry::metadata` does not follow symbolic links: only our own regular files go.
        let Ok(metadata) = entry.metadata() else {
            continue;
        };
        let stale = metadata
            .modified()
            .ok()
            .and_then(|modified| modified.elapsed().ok())
            .is_some_and(|age| age > STALE_TEMPORARY_AGE);
        if metadata.is_file() && stale {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Flushes a folder's entries (the rename) to disk. Only Unix can open a folder for this;
/// elsewhere the rename is as durable as the file system makes it.
fn sync_directory(directory: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(directory)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = directory;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_are_recognised_exactly() {
        assert!(is_temporary_name(".steergraph-12-0.tmp"));
        assert!(!is_temporary_name(".steergraph-.tmp"));
        assert!(!is_temporary_name("steergraph-12-0.tmp"));
        assert!(!is_temporary_name(".steergraph-12-0.tmp.bak"));
    }
}
