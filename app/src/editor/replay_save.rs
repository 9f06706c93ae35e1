//! File > Save run as replay… (issue 45): the preview's run, from tick 0 to the tick it shows,
//! written to a replay file (`.sgrec`) that `steergraph replay`, the editor and the C
//! interface play again. A replay file names its scene on disk and keeps no agents' states,
//! so the scene must be saved; what changed while the run ran (a fork from a past tick with
//! an edit, a graph edited or reloaded, a wall drawn, the cursor moved) it keeps as changes by
//! tick, read off the preview's recording against the scene as it loads from disk. The file is
//! proven before it is written: the saved scene is stepped again from tick 0 with those
//! changes on a thread of its own (the editor keeps answering), and the file is written only
//! when that run reaches the preview's state at its tick bit for bit. A run it cannot hold (an
//! agent dragged, a painted flow field, groups edited since the scene was saved) is refused,
//! saying so. A long proof can be cancelled from the status line.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};

use graph_runtime::replay::{Edits, ReplayFile, state_digest};
use graph_runtime::{SceneAssets, Simulation};

use super::EditorApp;
use super::file_dialog::Purpose;

/// A run being proven and saved on its own thread.
pub struct RunSave {
    /// The file being written.
    out: PathBuf,
    /// How the save ended.
    answer: Receiver<Answer>,
    /// The tick the run stepped again has reached, of `ticks`.
    reached: Arc<AtomicU64>,
    ticks: u64,
    /// Set to stop the proof: nothing is written.
    stop: Arc<AtomicBool>,
}

/// How a save ended.
enum Answer {
    /// Written: the status line's message.
    Saved(String),
    /// Not written: why, for the error dialog.
    Refused(String),
    /// Cancelled (at the tick `reached` says): nothing written.
    Cancelled,
}

impl RunSave {
    /// The status line while the run is stepped again: how far it is.
    fn progress(&self) -> String {
        let reached = self.reached.load(Ordering::Relaxed);
        if self.is_cancelling() {
            format!(
                "Cancelling the save of the run as {} (tick {reached} of {})…",
                self.out.display(),
                self.ticks
            )
        } else {
            format!(
                "Saving the run as {}: stepping the saved scene again to check it, tick {reached} of {}…",
                self.out.display(),
                self.ticks
            )
        }
    }

    /// Whether it was asked to stop.
    pub fn is_cancelling(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// The preview's run as the replay file will hold it.
struct Run {
    /// The scene file it names.
    scene: PathBuf,
    /// The tick the preview shows: the file holds ticks 0 to this.
    tick: u64,
    /// The preview's state at `tick` ([`state_digest`]).
    digest: u64,
    /// The preview's tick length.
    dt: f32,
    /// The run's seed.
    seed: u64,
}

/// What the refusals say to do.
const AGAIN: &str = "Reset the preview (its Reset button), let it run, then save the run.";

impl EditorApp {
    /// File > Save run as replay…: asks where, once the run can be saved (the scene saved,
    /// some ticks run); the preview pauses, so the run saved is the one shown when the name
    /// is picked.
    pub(super) fn save_run_as_replay(&mut self) {
        self.record_changes();
        if let Err(why) = self.run_to_save() {
            return self.error("Could not save the run as a replay.", &why);
        }
        self.preview.host.running = false;
        self.ask(Purpose::SaveReplay);
    }

    /// The suggested replay file: the scene's name ending in `.sgrec`, in its folder.
    pub(super) fn replay_file_suggested(&self) -> (String, Option<&Path>) {
        let scene = &self.workspace.scene;
        let name = scene.name();
        let stem = name.strip_suffix(".scene.ron").unwrap_or(&name);
        (
            format!("{stem}.sgrec"),
            scene.path.as_deref().and_then(Path::parent),
        )
    }

    /// Starts proving and saving the run to `out`, picked in the file dialog.
    pub(super) fn save_run_to(&mut self, out: &Path) {
        let refuse =
            |app: &mut Self, why: &str| app.error("Could not save the run as a replay.", why);
        if !out
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("sgrec"))
        {
            return refuse(
                self,
                &format!(
                    "{}: a replay file's name ends in .sgrec (the scene and graph files stay as they are)",
                    out.display()
                ),
            );
        }
        let run = match self.run_to_save() {
            Ok(run) => run,
            Err(why) => return refuse(self, &why),
        };
        let mut assets = match SceneAssets::load(&run.scene) {
            Ok(assets) => assets,
            Err(errors) => {
                let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
                return refuse(self, &lines.join("\n"));
            }
        };
        assets.scene.seed = run.seed;
        let edits = match Simulation::new(&assets) {
            Ok(fresh) => {
                let groups = &assets.scene.groups;
                (self.preview.host).recorded_edits(&fresh, groups, (run.tick, run.dt))
            }
            Err(errors) => Err((errors.iter().map(ToString::to_string))
                .collect::<Vec<_>>()
                .join("\n")),
        };
        let edits = match edits {
            Ok(edits) => edits,
            Err(why) => return refuse(self, &format!("{why} Nothing was written.")),
        };
        let (sender, answer) = mpsc::channel();
        let named = ReplayFile::scene_name_for(out, &run.scene);
        let file = out.to_path_buf();
        let save = RunSave {
            out: out.to_path_buf(),
            answer,
            reached: Arc::new(AtomicU64::new(0)),
            ticks: run.tick,
            stop: Arc::new(AtomicBool::new(false)),
        };
        // Said before the thread starts: the line reads tick 0 until a frame polls it.
        let starting = save.progress();
        let (reached, stopped) = (Arc::clone(&save.reached), Arc::clone(&save.stop));
        let spawned = std::thread::Builder::new()
            .name("steergraph-save-run".to_owned())
            .spawn(move || {
                let proven =
                    prove_and_save((&assets, edits), named, &run, &file, (&reached, &stopped));
                // The editor may have closed; nobody is left to tell.
                let _ = sender.send(proven);
            });
        if let Err(error) = spawned {
            return refuse(
                self,
                &format!("cannot start the thread that saves it: {error}"),
            );
        }
        self.status.set(starting);
        self.services.run_save = Some(save);
    }

    /// Whether a run is being proven and saved.
    pub fn is_saving_run(&self) -> bool {
        self.services.run_save.is_some()
    }

    /// Stops the run being proven: nothing is written (the answer comes on a later frame).
    pub(super) fn cancel_run_save(&mut self) {
        if let Some(save) = &self.services.run_save {
            save.stop.store(true, Ordering::Relaxed);
            self.status.set(save.progress());
        }
    }

    /// The run save's part of the status line, before its message (how far the proof is): a
    /// button that cancels it.
    pub(super) fn run_save_status(&mut self, ui: &mut egui::Ui) {
        let Some(save) = &self.services.run_save else {
            return;
        };
        let cancel = egui::Button::new("Cancel");
        let tip = "Stop checking the run: no replay file is written";
        if (ui.add_enabled(!save.is_cancelling(), cancel))
            .on_hover_text(tip)
            .clicked()
        {
            self.push(super::Command::CancelRunSave);
        }
    }

    /// Takes the answer of a run save that has finished: the status line says where the
    /// file went, or an error says why none was written.
    pub(super) fn poll_run_save(&mut self, ctx: &egui::Context) {
        let Some(save) = &self.services.run_save else {
            return;
        };
        let answer = match save.answer.try_recv() {
            Ok(answer) => answer,
            Err(TryRecvError::Empty) => {
                // A long run takes a while to step again: say how far it is.
                self.status.set(save.progress());
                ctx.request_repaint_after(std::time::Duration::from_millis(100));
                return;
            }
            Err(TryRecvError::Disconnected) => Answer::Refused(format!(
                "{}: the thread saving it stopped without an answer; nothing was written",
                save.out.display()
            )),
        };
        let out = save.out.display().to_string();
        let (reached, ticks) = (save.reached.load(Ordering::Relaxed), save.ticks);
        self.services.run_save = None;
        match answer {
            Answer::Saved(message) => self.status.set(message),
            Answer::Cancelled => self.status.set(format!(
                "Cancelled saving the run as {out} at tick {reached} of {ticks}; nothing was written"
            )),
            Answer::Refused(why) => {
                self.status.set(format!(
                    "Did not save the run as {out} (the message says why)"
                ));
                self.error("Could not save the run as a replay.", &why);
            }
        }
    }

    /// The preview's run, if a replay file can hold it; else why not, in a designer's words.
    fn run_to_save(&self) -> Result<Run, String> {
        if self.services.run_save.is_some() {
            return Err("A run is being saved already; wait for it to finish, or cancel it (Cancel, on the status line).".to_owned());
        }
        let document = &self.workspace.scene;
        let Some(scene) = document.path.clone() else {
            return Err(format!(
                "The scene {} is not saved: a replay file names its scene on disk. Save the scene (File > Save scene as…), then {}",
                document.name(),
                AGAIN.to_lowercase()
            ));
        };
        let host = &self.preview.host;
        let Some(simulation) = host.simulation.as_ref() else {
            return Err(if host.is_stepping() {
                "A tick of the preview is running; try again in a moment.".to_owned()
            } else {
                "The preview is not running the scene (the problems list says why).".to_owned()
            });
        };
        if simulation.tick() == 0 {
            return Err("The run has not started: play the preview, then save the run.".to_owned());
        }
        Ok(Run {
            scene,
            tick: simulation.tick(),
            digest: state_digest(simulation),
            dt: host.tick_length(),
            seed: document.scene.seed,
        })
    }
}

/// Steps the saved scene from tick 0 to the run's tick (noting each tick reached in
/// `reached`, stopping when `stop` is set) and writes the replay file when it reaches the
/// preview's state there.
fn prove_and_save(
    (assets, edits): (&SceneAssets, Edits),
    named: String,
    run: &Run,
    out: &Path,
    (reached, stop): (&AtomicU64, &AtomicBool),
) -> Answer {
    let each = |simulation: &graph_runtime::Simulation| {
        reached.store(simulation.tick(), Ordering::Relaxed);
        !stop.load(Ordering::Relaxed)
    };
    let changes = edits.changes().len();
    let file = match ReplayFile::record_edited(assets, named, (run.tick, run.dt), edits, each) {
        Ok(Some(file)) => file,
        Ok(None) => return Answer::Cancelled,
        Err(error) => return Answer::Refused(error.to_string()),
    };
    let again = file.digest(run.tick).unwrap_or_default();
    if again != run.digest {
        return Answer::Refused(format!(
            "The preview's run is not the saved scene's: stepped again from tick 0 with the run's {changes} changes, {} reaches another state at tick {} (digest {again:016x}; the preview's is {:016x}). A replay file holds the graphs, walls, obstacles, paths and targets edited while a run ran, but not an agent dragged, and its scene on disk must make the agents the run had (groups and spawns as the run began). {AGAIN} Nothing was written.",
            run.scene.display(),
            run.tick,
            run.digest,
        ));
    }
    if let Err(error) = file.save(out) {
        return Answer::Refused(format!("{}: {error}; nothing was written", out.display()));
    }
    let edited = match changes {
        0 => String::new(),
        n => format!(" with the run's changes ({n}, by tick)"),
    };
    Answer::Saved(format!(
        "Saved the run as {}: {} agents, ticks 0 to {} of {:.2} ms, seed {}; checked: the saved scene stepped again{edited} reaches the preview's state at tick {} bit for bit",
        out.display(),
        file.agents,
        file.ticks(),
        file.dt * 1000.0,
        file.seed,
        run.tick,
    ))
}
