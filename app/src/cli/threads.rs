//! The worker threads a command runs on: `--threads` checked and a pool of that many.

/// The worker threads a command runs on: `--threads`, or one per core.
pub fn thread_count(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    })
}

/// The most worker threads `--threads` may ask for: four per core, and at least 64 (enough to
/// split a tick as a 16-core machine does on any machine). More only cost memory and
/// switching: the results are the same on any count.
pub fn most_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    cores.saturating_mul(4).max(64)
}

/// Runs `work` on a pool of `threads` workers (all cores when `None`); refuses 0 and more
/// than [`most_threads`] before starting any.
pub fn with_threads<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce() -> T + Send,
) -> Result<T, Vec<String>> {
    let mut builder =
        rayon::ThreadPoolBuilder::new().thread_name(|index| format!("steergraph-worker-{index}"));
    if let Some(threads) = threads {
        if threads == 0 {
            return Err(vec!["--threads must be at least 1".to_owned()]);
        }
        let most = most_threads();
        if threads > most {
            return Err(vec![format!(
                "--threads {threads}: at most {most} (four per core on this machine, at least 64); the results are the same on any count"
            )]);
        }
        builder = builder.num_threads(threads);
    }
    let pool = builder
        .build()
        .map_err(|e| vec![format!("cannot start worker threads: {e}")])?;
    Ok(pool.install(work))
}

#[cfg(test)]
mod tests {
    /// `--threads 100000` started over 10,000 threads (issue 46); now it is refused before
    /// any starts, naming the limit, and the limit itself is accepted.
    #[test]
    fn too_many_threads_are_refused_before_starting() {
        let most = super::most_threads();
        assert!(most >= 64);
        let refused = super::with_threads(Some(100_000), || unreachable!("nothing runs"));
        let message = refused.expect_err("refused").join("\n");
        assert!(
            message.starts_with(&format!("--threads 100000: at most {most} ")),
            "{message}"
        );
        let ran = super::with_threads(Some(64), rayon::current_num_threads);
        assert_eq!(ran, Ok(64));
    }
}
