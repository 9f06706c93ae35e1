//! A mutation fuzzer on stable Rust: mutates the presets (bytes, lines, numbers, names), runs
//! each result through load → compile → 100 ticks under `catch_unwind`, and checks that motion
//! stays finite and that whatever loads saves, loads and saves again to the same text.
//!
//! ```text
//! cargo run --release -p graph-runtime --example fuzz -- --seconds 60 --seed 1
//! ```
//!
//! Exits 1 if it found anything (each finding is printed and written to `--findings`), else 0;
//! prints executions per second. See `graph-runtime/FUZZING.md`.

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use graph_runtime::{
    AssetKind, FlowField, FlowFieldSource, Graph, SaveError, Scene, SceneAssets, Simulation,
    Subgraphs, sniff_kind,
};

mod replays;
mod shapes;
mod walls;

/// Ticks simulated per input.
const TICKS: usize = 100;
/// Inputs spawning more agents than this are loaded and validated but not simulated, so one
/// input cannot take the whole run (the limits themselves are tested elsewhere).
const MAX_SIMULATED_AGENTS: u64 = 3_000;
/// An input taking longer than this, plus what its size allows ([`NANOS_PER_NODE_AGENT_TICK`]),
/// is a finding (time was one of issue 10's attacks).
const SLOW: Duration = Duration::from_secs(5);
/// Nanoseconds each node may take for each agent each tick it runs, on top of [`SLOW`].
/// Evaluation is linear in nodes × agents × ticks, and a big graph run by many agents takes
/// long honestly: a 3,000-node chain run by the 600 agents of two scenes for 100 ticks is 177
/// million node-agent-ticks, which took 2.9–4.7 s on the shared machine (about 20–27 ns each)
/// and once 5.0 s in CI. Allowing 100 ns keeps such an input from failing on a slow day, while
/// anything worse than linear (issue 10's N² name check; a quadratic neighbor scan over a
/// stacked group of small graphs, allowed well under a second) still shows.
const NANOS_PER_NODE_AGENT_TICK: u64 = 100;
/// Stop after this many findings.
const MAX_FINDINGS: usize = 20;
/// Values spliced over numbers: the edges of `f32`, of the limits and of the integer types.
const INTERESTING: &[&str] = &[
    "NaN",
    "inf",
    "-inf",
    "1e39",
    "-1e39",
    "3e38",
    "-3e38",
    "1e9",
    "1.0000001e9",
    "1e-45",
    "1e-6",
    "0",
    "0.0",
    "-0.0",
    "-1",
    "-1.0",
    "1",
    "2",
    "360.0",
    "361.0",
    "65535",
    "65536",
    "65537",
    "4294967295",
    "4294967296",
    "1000000",
    "1000001",
    "16777217",
    "0.5",
    "1e10",
];

/// Set while an input runs: a panic then is a finding, not a bug of the fuzzer.
static IN_EXECUTION: AtomicBool = AtomicBool::new(false);

struct Options {
    seconds: u64,
    seed: u64,
    presets: PathBuf,
    findings: PathBuf,
    /// A finding to run again alone (its name says which preset it mutates).
    replay: Option<PathBuf>,
}

fn parse_options() -> Result<Options, String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut options = Options {
        seconds: 60,
        seed: 1,
        presets: manifest.join("../presets"),
        findings: manifest.join("../target/fuzz-findings"),
        replay: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--seconds" => options.seconds = value()?.parse().map_err(|e| format!("{e}"))?,
            "--seed" => options.seed = value()?.parse().map_err(|e| format!("{e}"))?,
            "--presets" => options.presets = PathBuf::from(value()?),
            "--findings" => options.findings = PathBuf::from(value()?),
            "--replay" => options.replay = Some(PathBuf::from(value()?)),
            other => {
                return Err(format!(
                    "unknown argument {other}; use --seconds N --seed S [--presets DIR] [--findings DIR] or --replay FINDING"
                ));
            }
        }
    }
    Ok(options)
}

/// `SplitMix64`: small, seedable, good enough to pick mutations.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}

/// The presets by file name, and the words (node kinds, names) worth splicing.
struct Corpus {
    files: BTreeMap<String, String>,
    words: Vec<String>,
    /// The presets' folder: generated Subgraph nodes load their files from it.
    folder: PathBuf,
}

/// The regression scenes kept beside the fuzzer (`examples/fuzz/corpus/`): issue 46's walls,
/// run with the presets' graphs and mutated like the presets.
const REGRESSIONS: &str = "examples/fuzz/corpus";

/// Reads every `.ron` file of `folder` into `files`; a name already there is an error.
fn read_ron_files(folder: &Path, files: &mut BTreeMap<String, String>) -> Result<(), String> {
    let entries = std::fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if Path::new(&name).extension().is_some_and(|e| e == "ron") {
            let text = std::fs::read_to_string(entry.path()).map_err(|e| format!("{name}: {e}"))?;
            if files.insert(name.clone(), text).is_some() {
                return Err(format!("{name} is both a preset and a regression scene"));
            }
        }
    }
    Ok(())
}

fn load_corpus(folder: &Path) -> Result<Corpus, String> {
    let mut files = BTreeMap::new();
    read_ron_files(folder, &mut files)?;
    if files.is_empty() {
        return Err(format!("no .ron presets in {}", folder.display()));
    }
    files.extend(replays::recorded(folder)?);
    read_ron_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(REGRESSIONS),
        &mut files,
    )?;
    let mut words: Vec<String> = files
        .values()
        .flat_map(|text| {
            text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .filter(|word| word.chars().next().is_some_and(char::is_alphabetic))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect();
    words.sort();
    words.dedup();
    Ok(Corpus {
        files,
        words,
        folder: folder.to_path_buf(),
    })
}

/// Byte ranges of the numbers in `text`.
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut index = 0;
    while index < bytes.len() {
        let starts = bytes[index].is_ascii_digit()
            && (index == 0
                || !(bytes[index - 1].is_ascii_alphanumeric() || bytes[index - 1] == b'_'));
        if starts {
            let start = if index > 0 && bytes[index - 1] == b'-' {
                index - 1
            } else {
                index
            };
            let mut end = index;
            while end < bytes.len()
                && (bytes[end].is_ascii_digit()
                    || matches!(bytes[end], b'.' | b'e' | b'E' | b'-' | b'+'))
            {
                end += 1;
            }
            found.push((start, end));
            index = end;
        } else {
            index += 1;
        }
    }
    found
}

/// Applies `edit` to the bytes of `text`, keeping it a `String` (invalid UTF-8 is replaced),
/// so that byte offsets found in the text stay valid for the next mutation.
fn edit_bytes(text: String, edit: impl FnOnce(&mut Vec<u8>)) -> String {
    let mut bytes = text.into_bytes();
    edit(&mut bytes);
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Applies one to four mutations to `text`.
fn mutate(text: &str, corpus: &Corpus, random: &mut Random) -> String {
    let mut text = text.to_owned();
    for _ in 0..=random.below(4) {
        text = match random.below(9) {
            // A number replaced by an interesting value.
            0..=2 => {
                let spots = numbers(&text);
                match (random.pick(&spots), random.pick(INTERESTING)) {
                    (Some(&(start, end)), Some(value)) => {
                        edit_bytes(text, |bytes| drop(bytes.splice(start..end, value.bytes())))
                    }
                    _ => text,
                }
            }
            // A byte flipped, inserted or removed.
            3 => {
                let at = random.below(text.len());
                let bit = random.below(8);
                edit_bytes(text, |bytes| {
                    if let Some(byte) = bytes.get_mut(at) {
                        *byte ^= 1 << bit;
                    }
                })
            }
            4 => {
                let at = random.below(text.len() + 1);
                let byte = *random
                    .pick(b"(){}[],:\"0123456789.-eE \nNaN")
                    .unwrap_or(&b' ');
                edit_bytes(text, |bytes| bytes.insert(at, byte))
            }
            // A line duplicated elsewhere (duplicate keys, extra nodes), removed or swapped.
            5 => {
                let mut lines: Vec<&str> = text.lines().collect();
                let from = random.below(lines.len());
                let to = random.below(lines.len() + 1);
                if let Some(&line) = lines.get(from) {
                    lines.insert(to, line);
                }
                lines.join("\n")
            }
            6 => {
                let mut lines: Vec<&str> = text.lines().collect();
                let (a, b) = (random.below(lines.len()), random.below(lines.len()));
                if random.below(2) == 0 {
                    if a < lines.len() {
                        lines.remove(a);
                    }
                } else if a < lines.len() && b < lines.len() {
                    lines.swap(a, b);
                }
                lines.join("\n")
            }
            // A word (node kind, name, field) replaced by another from the presets.
            7 => match (random.pick(&corpus.words), random.pick(&corpus.words)) {
                (Some(from), Some(to)) => text.replacen(from.as_str(), to, 1),
                _ => text,
            },
            // A chunk of another preset spliced in (at a character boundary).
            _ => {
                let others: Vec<&String> = corpus.files.values().collect();
                let chunk = random.pick(&others).and_then(|other| {
                    let start = random.below(other.len());
                    let end = (start + 1 + random.below(200)).min(other.len());
                    other.get(start..end)
                });
                let at = random.below(text.len() + 1);
                match chunk {
                    Some(chunk) if text.is_char_boundary(at) => {
                        let mut spliced = text;
                        spliced.insert_str(at, chunk);
                        spliced
                    }
                    _ => text,
                }
            }
        };
    }
    text
}

/// What happened to one input (anything but `Finding` is fine).
enum Verdict {
    Refused,
    /// Ran, with how many node-agent-ticks it simulated (a graph's nodes × the agents
    /// running it × ticks, over the scenes run; 0 when nothing was simulated).
    Ran(u64),
    Finding(String),
}

/// How long an input that simulated `work` node-agent-ticks may take.
fn allowed(work: u64) -> Duration {
    SLOW.saturating_add(Duration::from_nanos(
        work.saturating_mul(NANOS_PER_NODE_AGENT_TICK),
    ))
}

/// save → load → save must give the same text.
fn round_trip<T: PartialEq>(
    value: &T,
    to_ron: impl Fn(&T) -> Result<String, SaveError>,
    from_ron: impl Fn(&str) -> Result<T, graph_runtime::LoadError>,
) -> Result<(), String> {
    let first = match to_ron(value) {
        Ok(text) => text,
        // Refusing to save a NaN loaded from a graph is the documented behavior.
        Err(SaveError::NonFinite { .. }) => return Ok(()),
        Err(error) => return Err(format!("loaded but cannot be saved: {error}")),
    };
    let again = from_ron(&first).map_err(|e| format!("saved text does not load: {e}"))?;
    let second = to_ron(&again).map_err(|e| format!("reloaded value cannot be saved: {e}"))?;
    if first != second {
        return Err("save → load → save changed the text".to_owned());
    }
    Ok(())
}

/// The node-agent-ticks simulating `scene` takes: each group's agents × its graph's nodes (the
/// graph's own, not its subgraphs') × [`TICKS`].
fn node_agent_ticks(scene: &Scene, graphs: &BTreeMap<String, Graph>) -> u64 {
    scene
        .groups
        .iter()
        .map(|group| {
            let nodes = graphs
                .get(&group.graph)
                .map_or(0, |graph| graph.nodes.len());
            (group.spawn.count() as u64)
                .saturating_mul(nodes as u64)
                .saturating_mul(TICKS as u64)
        })
        .fold(0, u64::saturating_add)
}

/// Runs the scene `scene_name` of the corpus at `dt`, with `replaced` (file name, mutated
/// text) in place of its original file.
fn run_scene(corpus: &Corpus, scene_name: &str, replaced: (&str, &str), dt: f32) -> Verdict {
    let text_of = |name: &str| -> Option<&str> {
        if name == replaced.0 {
            Some(replaced.1)
        } else {
            corpus.files.get(name).map(String::as_str)
        }
    };
    let Some(scene_text) = text_of(scene_name) else {
        return Verdict::Refused;
    };
    let Ok(scene) = Scene::from_ron(scene_text, scene_name) else {
        return Verdict::Refused;
    };
    if let Err(finding) = round_trip(&scene, Scene::to_ron, |t| Scene::from_ron(t, "again")) {
        return Verdict::Finding(finding);
    }
    let mut graphs = BTreeMap::new();
    for group in &scene.groups {
        let Some(Ok(graph)) = text_of(&group.graph).map(|t| Graph::from_ron(t, &group.graph))
        else {
            return Verdict::Refused;
        };
        if let Err(finding) = round_trip(&graph, Graph::to_ron, |t| Graph::from_ron(t, "again")) {
            return Verdict::Finding(finding);
        }
        graphs.insert(group.graph.clone(), graph);
    }
    let mut flow_fields = BTreeMap::new();
    for (name, source) in &scene.flow_fields {
        let field = match source {
            FlowFieldSource::Inline(field) => field.clone(),
            FlowFieldSource::File(file) => {
                let Some(Ok(field)) = text_of(file).map(|t| FlowField::from_ron(t, file)) else {
                    return Verdict::Refused;
                };
                if let Err(finding) = round_trip(&field, FlowField::to_ron, |t| {
                    FlowField::from_ron(t, "again")
                }) {
                    return Verdict::Finding(finding);
                }
                field
            }
        };
        flow_fields.insert(name.clone(), field);
    }
    if scene.agent_count() > MAX_SIMULATED_AGENTS {
        return Verdict::Refused;
    }
    let work = node_agent_ticks(&scene, &graphs);
    let assets = SceneAssets {
        scene,
        origin: scene_name.to_owned(),
        graphs,
        flow_fields,
    };
    let Ok(mut simulation) = Simulation::new(&assets) else {
        return Verdict::Refused;
    };
    let mut trace = graph_runtime::Trace::default();
    let mut before: Vec<glam::Vec2> = Vec::new();
    for tick in 0..TICKS {
        before.clear();
        before.extend(simulation.vehicles().iter().map(|v| v.position));
        simulation.step(dt);
        // Solid walls: no agent's step meets one (`BEHAVIORS.md`, "Solid walls").
        if let Err(finding) = walls::check_steps(&simulation, &before, tick) {
            return Verdict::Finding(finding);
        }
        if tick % 25 == 0 && !simulation.vehicles().is_empty() {
            // The editor's trace path (guides) must hold as well.
            let _ = simulation.trace(tick % simulation.vehicles().len(), dt, &mut trace);
        }
        if let Some((agent, vehicle)) = simulation
            .vehicles()
            .iter()
            .enumerate()
            .find(|(_, v)| !(v.position.is_finite() && v.velocity.is_finite()))
        {
            return Verdict::Finding(format!(
                "agent {agent} is not finite after tick {tick}: position {}, velocity {}",
                vehicle.position, vehicle.velocity
            ));
        }
    }
    Verdict::Ran(work)
}

/// Which scenes exercise `file` (a scene exercises itself).
fn scenes_using(corpus: &Corpus, file: &str) -> Vec<String> {
    if file.ends_with(".scene.ron") {
        return vec![file.to_owned()];
    }
    corpus
        .files
        .iter()
        .filter(|(name, text)| {
            name.ends_with(".scene.ron") && text.contains(&format!("\"{file}\""))
        })
        .map(|(name, _)| name.clone())
        .collect()
}

/// One execution: a mutated file, run through every scene that uses it.
fn execute(corpus: &Corpus, file: &str, mutated: &str) -> Verdict {
    // A file that sniffs as another kind is still loaded as what its name says.
    let _ = sniff_kind(mutated).map(AssetKind::tag);
    if Path::new(file).extension().is_some_and(|e| e == "sgrec") {
        return replays::run(&corpus.folder, file, mutated);
    }
    let scenes = scenes_using(corpus, file);
    if scenes.is_empty() {
        // A graph no scene uses: load, compile and round-trip it alone.
        return match Graph::from_ron(mutated, file) {
            Ok(graph) => {
                let _ = graph_runtime::compile(&graph);
                // Its subgraph files from the presets' folder, under the folder rules.
                let subgraphs = Subgraphs::load(&graph, &corpus.folder.join(file));
                if let Err(errors) = subgraphs.compile(&graph) {
                    let _ = subgraphs.messages(file, &errors);
                }
                match round_trip(&graph, Graph::to_ron, |t| Graph::from_ron(t, "again")) {
                    Ok(()) => Verdict::Ran(0),
                    Err(finding) => Verdict::Finding(finding),
                }
            }
            Err(_) => Verdict::Refused,
        };
    }
    let mut verdict = Verdict::Refused;
    let dt = walls::dt_of(mutated);
    for scene in scenes {
        match run_scene(corpus, &scene, (file, mutated), dt) {
            Verdict::Finding(finding) => return Verdict::Finding(format!("in {scene}: {finding}")),
            Verdict::Ran(work) => {
                let before = if let Verdict::Ran(before) = verdict {
                    before
                } else {
                    0
                };
                verdict = Verdict::Ran(before.saturating_add(work));
            }
            Verdict::Refused => {}
        }
    }
    verdict
}

/// What is wrong with an execution that ended with `verdict` after `took`, if anything.
fn finding_of(verdict: &Verdict, took: Duration) -> Option<String> {
    match *verdict {
        Verdict::Finding(ref finding) => Some(finding.clone()),
        Verdict::Ran(work) if took > allowed(work) => Some(format!(
            "slow: one input took {took:?}, more than the {:?} its {work} node-agent-ticks allow",
            allowed(work)
        )),
        Verdict::Refused if took > SLOW => {
            Some(format!("slow: one input took {took:?} to be refused"))
        }
        _ => None,
    }
}

/// Runs one saved finding again, as the run that found it did, and says what it does now.
fn replay(corpus: &Corpus, finding: &Path) -> ExitCode {
    // Findings are saved as `{seed}-{execution}-{preset}`.
    let name = finding.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let preset = name.splitn(3, '-').nth(2).unwrap_or(name);
    if !corpus.files.contains_key(preset) {
        eprintln!("fuzz: {name} does not name a preset after `seed-execution-`");
        return ExitCode::from(2);
    }
    let text = match std::fs::read_to_string(finding) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("fuzz: {}: {error}", finding.display());
            return ExitCode::from(2);
        }
    };
    let began = Instant::now();
    let verdict = execute(corpus, preset, &text);
    let took = began.elapsed();
    let what = match verdict {
        Verdict::Ran(work) => format!("ran {work} node-agent-ticks (allowed {:?})", allowed(work)),
        Verdict::Refused => "refused".to_owned(),
        Verdict::Finding(_) => "stopped".to_owned(),
    };
    println!("{name} as {preset}: {what} in {took:?}");
    match finding_of(&verdict, took) {
        Some(finding) => {
            println!("FINDING {finding}");
            ExitCode::FAILURE
        }
        None => ExitCode::SUCCESS,
    }
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("fuzz: {message}");
            return ExitCode::from(2);
        }
    };
    let corpus = match load_corpus(&options.presets) {
        Ok(corpus) => corpus,
        Err(message) => {
            eprintln!("fuzz: {message}");
            return ExitCode::from(2);
        }
    };
    // One worker: the fuzzer's throughput comes from many small inputs, not parallel ticks.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global();
    if let Some(finding) = &options.replay {
        return replay(&corpus, finding);
    }
    // Panics inside an execution are findings, reported below with their input; any other
    // panic is a bug of the fuzzer itself and is printed as usual. A panic the runtime
    // catches itself (a triangulation library's, which becomes a `NavError`) is neither, and
    // is not printed: the input is refused or runs, as a user would see it.
    let last_panic = Arc::new(Mutex::new(String::new()));
    let recorder = Arc::clone(&last_panic);
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if graph_runtime::navigation::in_guarded_call() {
            return;
        }
        if IN_EXECUTION.load(Ordering::Relaxed) {
            if let Ok(mut last) = recorder.lock() {
                *last = info.to_string();
            }
        } else {
            default_hook(info);
        }
    }));

    let names: Vec<String> = corpus.files.keys().cloned().collect();
    let mut random = Random(options.seed);
    let started = Instant::now();
    let deadline = Duration::from_secs(options.seconds);
    let (mut executions, mut ran, mut refused) = (0u64, 0u64, 0u64);
    let mut findings = Vec::new();
    while started.elapsed() < deadline && findings.len() < MAX_FINDINGS {
        let Some(file) = random.pick(&names) else {
            break;
        };
        let original = corpus.files.get(file).map_or("", String::as_str);
        // One input in four is a hostile shape (`shapes.rs`), the others mutations.
        let shaped = match random.below(4) {
            0 if file.ends_with(".graph.ron") => shapes::graph(original, &mut random),
            0 if file.ends_with(".scene.ron") => shapes::scene(original, &mut random),
            _ => None,
        };
        let mutated = shaped.unwrap_or_else(|| mutate(original, &corpus, &mut random));
        let began = Instant::now();
        IN_EXECUTION.store(true, Ordering::Relaxed);
        let outcome =
            std::panic::catch_unwind(AssertUnwindSafe(|| execute(&corpus, file, &mutated)));
        IN_EXECUTION.store(false, Ordering::Relaxed);
        executions += 1;
        let took = began.elapsed();
        let finding = match outcome {
            Ok(verdict) => {
                match verdict {
                    Verdict::Ran(_) => ran += 1,
                    Verdict::Refused => refused += 1,
                    Verdict::Finding(_) => {}
                }
                finding_of(&verdict, took)
            }
            Err(_) => Some(format!(
                "panic: {}",
                last_panic.lock().map(|m| m.clone()).unwrap_or_default()
            )),
        };
        if let Some(finding) = finding {
            let saved = options
                .findings
                .join(format!("{}-{executions}-{file}", options.seed));
            let _ = std::fs::create_dir_all(&options.findings);
            let _ = graph_runtime::write_atomically(&saved, &mutated);
            println!("FINDING {}: {file}: {finding}", saved.display());
            findings.push(finding);
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "fuzz: seed {}, {executions} executions in {seconds:.1} s ({:.0} executions/s): {ran} ran, {refused} refused, {} findings",
        options.seed,
        executions as f64 / seconds.max(1e-9),
        findings.len()
    );
    if findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
