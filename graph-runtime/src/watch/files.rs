//! Noticing that files changed on disk, debounced and by content.

use std::collections::BTreeMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::Hasher as _;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher as _};

/// How long a file must stay quiet after an event before its change is reported.
pub const WATCH_DEBOUNCE: Duration = Duration::from_millis(100);

/// Why a file cannot be watched.
#[derive(Debug, thiserror::Error)]
#[error("{path}: cannot watch for changes: {message}")]
pub struct WatchError {
    /// The file (or its folder).
    pub path: String,
    /// What the operating system said.
    pub message: String,
}

impl WatchError {
    fn new(path: &Path, error: impl std::fmt::Display) -> Self {
        Self {
            path: path.display().to_string(),
            message: error.to_string(),
        }
    }
}

/// One watched file.
#[derive(Debug)]
struct Watched {
    /// The path as the caller gave it (what [`FileWatcher::poll`] hands back).
    given: PathBuf,
    /// The folder watched for it.
    folder: PathBuf,
    /// A hash of the content last seen (`None`: missing or unreadable).
    fingerprint: Option<u64>,
    /// When the latest event about it arrived, while its change has not been reported.
    changed_at: Option<Instant>,
}

/// Watches files for changes made by other programs: a game's assets, the graph open in the
/// editor.
///
/// Each file's folder is watched rather than the file, because atomic saves (Steergraph's
/// own, most editors') write a temporary file and rename it over the old one. A change is
/// reported once the file has been quiet for the debounce time ([`WATCH_DEBOUNCE`] unless set) and
/// only if its content differs from what was last seen, so a save that writes the same bytes,
/// or the caller's own save announced with [`FileWatcher::refresh`], is not reported. A file
/// that disappears is not reported until it is back.
///
/// Nothing blocks: the operating system's notifications arrive on the watcher's own thread and
/// wait in a channel until [`FileWatcher::poll`], which a game or UI loop calls once a frame.
///
/// Needs the `watch` feature.
pub struct FileWatcher {
    /// `None` only while the watcher is dropped.
    watcher: Option<RecommendedWatcher>,
    events: Receiver<notify::Result<notify::Event>>,
    /// By canonical path.
    files: BTreeMap<PathBuf, Watched>,
    debounce: Duration,
    /// How many settled changes [`FileWatcher::poll`] has compared, reported or not.
    checked: u64,
}

impl std::fmt::Debug for FileWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileWatcher")
            .field("files", &self.files)
            .field("debounce", &self.debounce)
            .finish_non_exhaustive()
    }
}

/// How long dropping a [`FileWatcher`] waits, at most, for the operating system watcher's
/// thread to let go of its event handler.
const SHUTDOWN_WAIT: Duration = Duration::from_millis(250);

impl Drop for FileWatcher {
    /// notify's event loop runs on a thread of its own, which dropping its watcher only asks
    /// to stop. This waits (at most a quarter of a second) until that thread has let go of the
    /// event handler, whose sender then leaves the channel disconnected, so what the thread
    /// held is freed before the `FileWatcher` is gone: a host that checks its memory at exit
    /// (valgrind, issue 46) or unloads the library relies on it.
    fn drop(&mut self) {
        drop(self.watcher.take());
        let deadline = Instant::now() + SHUTDOWN_WAIT;
        while let Ok(_queued) =
            (self.events).recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {}
    }
}

impl FileWatcher {
    /// A watcher watching nothing yet.
    pub fn new() -> Result<Self, WatchError> {
        Self::with_wake(|| {})
    }

    /// Like [`FileWatcher::new`], calling `wake` (on the watcher's thread) whenever an event
    /// arrives, so a UI that sleeps while idle can ask for a frame and [`FileWatcher::poll`].
    pub fn with_wake(wake: impl Fn() + Send + 'static) -> Result<Self, WatchError> {
        let (sender, events) = mpsc::channel();
        let watcher = notify::recommended_watcher(move |event| {
            // The receiver is gone only when the FileWatcher is dropped.
            let _ = sender.send(event);
            wake();
        })
        .map_err(|error| WatchError::new(Path::new("<watcher>"), error))?;
        Ok(Self {
            watcher: Some(watcher),
            events,
            files: BTreeMap::new(),
            debounce: WATCH_DEBOUNCE,
            checked: 0,
        })
    }

    /// Sets how long a file must stay quiet before its change is reported.
    pub fn set_debounce(&mut self, debounce: Duration) {
        self.debounce = debounce;
    }

    /// Starts watching `file` (which may not exist yet; its folder must). Its content now is
    /// what later content is compared with.
    pub fn watch(&mut self, file: &Path) -> Result<(), WatchError> {
        let key = canonical(file)?;
        if self.files.contains_key(&key) {
            return Ok(());
        }
        let folder = key
            .parent()
            .map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
        if !self.files.values().any(|w| w.folder == folder)
            && let Some(watcher) = self.watcher.as_mut()
        {
            watcher
                .watch(&folder, RecursiveMode::NonRecursive)
                .map_err(|error| WatchError::new(&folder, error))?;
        }
        let fingerprint = fingerprint(&key);
        self.files.insert(
            key,
            Watched {
                given: file.to_path_buf(),
                folder,
                fingerprint,
                changed_at: None,
            },
        );
        Ok(())
    }

    /// Stops watching `file` (nothing happens if it was not watched).
    pub fn unwatch(&mut self, file: &Path) {
        let Some(key) = self.key_of(file) else {
            return;
        };
        let Some(watched) = self.files.remove(&key) else {
            return;
        };
        if !self.files.values().any(|w| w.folder == watched.folder)
            && let Some(watcher) = self.watcher.as_mut()
        {
            // The folder may be gone already; there is nothing left to stop then.
            let _ = watcher.unwatch(&watched.folder);
        }
    }

    /// The files watched, as given to [`FileWatcher::watch`].
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.files.values().map(|w| w.given.as_path())
    }

    /// Takes what `file` holds now as seen: call after saving it yourself, so your own save is
    /// not reported as a change.
    pub fn refresh(&mut self, file: &Path) {
        if let Some(key) = self.key_of(file)
            && let Some(watched) = self.files.get_mut(&key)
        {
            watched.fingerprint = fingerprint(&key);
        }
    }

    /// The files (as given to [`FileWatcher::watch`]) whose content changed and then stayed
    /// quiet for the debounce time since the last call. Never blocks.
    pub fn poll(&mut self) -> Vec<PathBuf> {
        self.drain_events();
        let now = Instant::now();
        let mut changed = Vec::new();
        for (key, watched) in &mut self.files {
            let Some(at) = watched.changed_at else {
                continue;
            };
            if now.duration_since(at) < self.debounce {
                continue;
            }
            watched.changed_at = None;
            self.checked += 1;
            let seen = fingerprint(key);
            if seen.is_some() && seen != watched.fingerprint {
                changed.push(watched.given.clone());
            }
            if seen.is_some() {
                watched.fingerprint = seen;
            }
        }
        changed
    }

    /// How many times a file's events settled and [`FileWatcher::poll`] compared its content,
    /// whether it then reported a change or found the content it had seen (the caller's own
    /// save, the same bytes). A test that must show a save is *not* reported waits for this
    /// to move instead of waiting for a while.
    pub fn checked(&self) -> u64 {
        self.checked
    }

    /// How long until a change waiting for quiet may be reported (`None`: nothing waits). A
    /// UI asks for a frame after it.
    pub fn settling(&self) -> Option<Duration> {
        let now = Instant::now();
        self.files
            .values()
            .filter_map(|w| w.changed_at)
            .map(|at| self.debounce.saturating_sub(now.duration_since(at)))
            .min()
    }

    fn drain_events(&mut self) {
        loop {
            let event = match self.events.try_recv() {
                Ok(event) => event,
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return,
            };
            let now = Instant::now();
            match event {
                Ok(event) if !event.need_rescan() => {
                    if matches!(event.kind, EventKind::Access(_)) {
                        continue;
                    }
                    for path in &event.paths {
                        if let Some(watched) = self.files.get_mut(path) {
                            watched.changed_at = Some(now);
                        }
                    }
                }
                // Events were lost (or the backend failed): look at every file again; the
                // content check keeps unchanged ones quiet.
                _ => {
                    for watched in self.files.values_mut() {
                        watched.changed_at = Some(now);
                    }
                }
            }
        }
    }

    fn key_of(&self, file: &Path) -> Option<PathBuf> {
        canonical(file)
            .ok()
            .filter(|key| self.files.contains_key(key))
            .or_else(|| {
                self.files
                    .iter()
                    .find(|(_, w)| w.given == file)
                    .map(|(key, _)| key.clone())
            })
    }
}

/// `file` with its folder made absolute and free of links; the file itself is resolved too
/// when it is a link (saves write through it, so its target is what changes).
fn canonical(file: &Path) -> Result<PathBuf, WatchError> {
    if let Ok(resolved) = std::fs::canonicalize(file) {
        return Ok(resolved);
    }
    let name = file
        .file_name()
        .ok_or_else(|| WatchError::new(file, "not a file name"))?;
    let folder = match file.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let folder = std::fs::canonicalize(folder).map_err(|error| WatchError::new(folder, error))?;
    Ok(folder.join(name))
}

/// A hash of the file's bytes, `None` when it cannot be read.
fn fingerprint(file: &Path) -> Option<u64> {
    let bytes = std::fs::read(file).ok()?;
    let mut hasher = DefaultHasher::new();
    hasher.write(&bytes);
    hasher.write_usize(bytes.len());
    Some(hasher.finish())
}
