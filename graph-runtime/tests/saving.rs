//! Saving keeps what the user has: the one atomic-write path (`write_atomically`,
//! `write_atomically_with`, `write_all_atomically`) and the asset `save` methods built on it.

use std::path::Path;
use std::time::{Duration, SystemTime};

mod common;

use common::{files_in, small_graph};
use graph_runtime::{SaveError, write_all_atomically, write_atomically, write_atomically_with};

#[test]
fn a_failing_streamed_write_leaves_the_old_file_and_no_temporary_file() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let path = directory.path().join("out.csv");
    std::fs::write(&path, "old").expect("write");
    let error = write_atomically_with(&path, |writer| {
        writer.write_all(b"half of the new")?;
        Err(std::io::Error::other("the simulation failed"))
    })
    .expect_err("the writer failed");
    assert!(
        error
            .to_string()
            .ends_with("out.csv: cannot save: the simulation failed"),
        "{error}"
    );
    assert_eq!(std::fs::read_to_string(&path).expect("read"), "old");
    assert_eq!(files_in(directory.path()), vec!["out.csv"]);
}

#[cfg(unix)]
#[test]
fn saving_through_a_symbolic_link_replaces_its_target_and_keeps_the_link() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let real = directory.path().join("assets");
    std::fs::create_dir(&real).expect("folder");
    std::fs::write(real.join("seek.graph.ron"), "old").expect("write");
    let link = directory.path().join("seek.graph.ron");
    std::os::unix::fs::symlink("assets/seek.graph.ron", &link).expect("symlink");

    small_graph().save(&link).expect("saved");
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink(),
        "the link is still a link"
    );
    assert_eq!(
        std::fs::read_to_string(real.join("seek.graph.ron")).expect("read"),
        small_graph().to_ron().expect("text")
    );
    // A dangling link is saved to the file it names.
    let dangling = directory.path().join("new.graph.ron");
    std::os::unix::fs::symlink("assets/new.graph.ron", &dangling).expect("symlink");
    write_atomically(&dangling, "new").expect("saved");
    assert_eq!(
        std::fs::read_to_string(real.join("new.graph.ron")).expect("read"),
        "new"
    );
}

#[cfg(unix)]
#[test]
fn saving_keeps_the_permission_mode_of_the_file_it_replaces() {
    use std::os::unix::fs::PermissionsExt as _;
    let directory = tempfile::tempdir().expect("a temporary directory");
    for mode in [0o600, 0o640, 0o755] {
        let path = directory.path().join(format!("mode-{mode:o}.txt"));
        std::fs::write(&path, "old").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
        write_atomically(&path, "new").expect("saved");
        let kept = std::fs::metadata(&path).expect("stat").permissions().mode() & 0o777;
        assert_eq!(kept, mode, "mode {mode:o}");
    }
}

#[cfg(unix)]
#[test]
fn saving_onto_a_fifo_is_refused_and_leaves_it_in_place() {
    use std::os::unix::fs::FileTypeExt as _;
    let directory = tempfile::tempdir().expect("a temporary directory");
    let fifo = directory.path().join("out.csv");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|status| status.success()) {
        eprintln!("mkfifo is not available; skipped");
        return;
    }
    let error = write_atomically(&fifo, "rows").expect_err("refused");
    assert!(
        matches!(
            error,
            SaveError::NotARegularFile {
                kind: "a FIFO (named pipe)",
                ..
            }
        ),
        "{error:?}"
    );
    assert!(
        std::fs::symlink_metadata(&fifo)
            .expect("still there")
            .file_type()
            .is_fifo()
    );
    assert_eq!(files_in(directory.path()), vec!["out.csv"]);
}

#[cfg(unix)]
#[test]
fn saving_onto_a_device_is_refused_before_anything_is_written() {
    // Only the refusal is tested on the real /dev/null: it happens before any temporary file
    // is created, so the test cannot harm the device even when run as root.
    let error = write_atomically(Path::new("/dev/null"), "rows").expect_err("refused");
    assert_eq!(
        error.to_string(),
        "/dev/null: cannot save: it is a device, not a regular file, and is left as it is"
    );
}

#[test]
fn stale_temporary_files_of_a_killed_save_are_removed_and_fresh_ones_kept() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let stale = directory.path().join(".steergraph-4242-7.tmp");
    let fresh = directory.path().join(".steergraph-4243-0.tmp");
    let unrelated = directory.path().join(".other-1.tmp");
    for path in [&stale, &fresh, &unrelated] {
        std::fs::write(path, "partial").expect("write");
    }
    let two_hours_ago = SystemTime::now() - Duration::from_secs(2 * 60 * 60);
    for path in [&stale, &unrelated] {
        std::fs::File::options()
            .write(true)
            .open(path)
            .expect("open")
            .set_modified(two_hours_ago)
            .expect("age the file");
    }
    write_atomically(&directory.path().join("a.txt"), "a").expect("saved");
    assert_eq!(
        files_in(directory.path()),
        vec![".other-1.tmp", ".steergraph-4243-0.tmp", "a.txt"],
        "only the stale temporary file of this program is gone"
    );
}

#[cfg(unix)]
#[test]
fn saving_a_hard_linked_file_gives_the_path_a_new_file_as_documented() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let path = directory.path().join("a.txt");
    let other = directory.path().join("b.txt");
    std::fs::write(&path, "old").expect("write");
    std::fs::hard_link(&path, &other).expect("hard link");
    write_atomically(&path, "new").expect("saved");
    assert_eq!(std::fs::read_to_string(&path).expect("read"), "new");
    assert_eq!(std::fs::read_to_string(&other).expect("read"), "old");
}

#[test]
fn a_graph_with_a_non_finite_number_is_not_saved() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let path = directory.path().join("nan.graph.ron");
    for value in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let mut graph = small_graph();
        graph.parameters.insert("speed".to_owned(), value);
        let error = graph.save(&path).expect_err("refused");
        let SaveError::NonFinite { line, text } = &error else {
            panic!("expected NonFinite, got {error:?}");
        };
        assert_eq!(*line, 5, "{error}");
        assert!(text.starts_with("\"speed\": "), "{error}");
        assert!(!path.exists());
    }
    // A name that reads like a non-finite number is just a name.
    let mut graph = small_graph();
    graph.parameters.insert("NaN inf".to_owned(), 1.0);
    graph.save(&path).expect("saved");
}

#[test]
fn a_multi_file_save_writes_every_file_or_none() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let flow = directory.path().join("wind.flow.ron");
    let scene = directory.path().join("a.scene.ron");
    std::fs::write(&scene, "old scene").expect("write");
    write_all_atomically(&[(&flow, "new flow"), (&scene, "new scene")]).expect("saved");
    assert_eq!(std::fs::read_to_string(&flow).expect("read"), "new flow");
    assert_eq!(std::fs::read_to_string(&scene).expect("read"), "new scene");

    // The scene cannot be written (its folder is missing): the flow file is not replaced
    // either, and no temporary file is left.
    let missing = directory.path().join("missing").join("b.scene.ron");
    let error = write_all_atomically(&[
        (flow.as_path(), b"newer flow".as_slice()),
        (missing.as_path(), b"x".as_slice()),
    ])
    .expect_err("the scene's folder is missing");
    assert!(
        matches!(&error, SaveError::Io { path, .. } if path.ends_with("b.scene.ron")),
        "{error:?}"
    );
    assert_eq!(std::fs::read_to_string(&flow).expect("read"), "new flow");
    assert_eq!(
        files_in(directory.path()),
        vec!["a.scene.ron", "wind.flow.ron"]
    );

    // A non-regular target anywhere in the list refuses the whole save up front.
    let error = write_all_atomically(&[(flow.clone(), "x"), (directory.path().to_path_buf(), "y")])
        .expect_err("a folder is not a file");
    assert!(
        matches!(error, SaveError::NotARegularFile { .. }),
        "{error:?}"
    );
    assert_eq!(std::fs::read_to_string(&flow).expect("read"), "new flow");
}
