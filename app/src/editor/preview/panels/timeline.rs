//! The timeline under the viewport (issue 45): the recorded ticks of the run, to go back to any
//! of them and look (agents, guides, the inspector and the live values on the graph as they
//! were), a tick back or on, backwards play, the previous or next event (an agent stuck, an
//! overlap, a wall contact, a jump, a fall), and the memory the recording keeps (its budget
//! set from the right-click menu). Playing or stepping from a past tick forks the run: what
//! came after it is dropped.

use egui::Ui;

use super::super::Preview;
use super::super::host::{EventKind, ReplayStatus};

impl Preview {
    /// The timeline row.
    pub(in crate::editor::preview) fn timeline(&mut self, ui: &mut Ui) {
        let Some((first, last)) = self.host.recorded() else {
            return;
        };
        // While a tick runs on the worker the row stays, greyed, at the last tick recorded.
        let now = self.host.tick();
        ui.add_enabled_ui(now.is_some(), |ui| {
            self.timeline_row(ui, (first, last), now.unwrap_or(last));
        });
    }

    /// The row's controls, the preview at tick `now` of the recorded `first` to `last`: three
    /// lines of fixed height, whatever shows (what does not fit is cut, never wrapped onto
    /// another line that would move the viewport). The times and the recording's memory have
    /// the third line to themselves: beside a fork's or a replay's words on the second, a
    /// preview of the default width cut them to "15.3…".
    fn timeline_row(&mut self, ui: &mut Ui, (first, last): (u64, u64), now: u64) {
        ui.horizontal(|ui| self.timeline_moves(ui, (first, last), now));
        ui.horizontal(|ui| {
            // The event buttons first, so that a narrow preview cuts the words, not them.
            self.timeline_events(ui, (first, last), now);
            self.timeline_replay(ui);
            self.timeline_fork(ui);
        });
        ui.horizontal(|ui| self.timeline_times(ui, last, now));
    }

    /// The tick shown and the last recorded (`last`), in seconds, and the memory the recording
    /// keeps of its budget (right-click to set it); then what happened at the tick shown.
    fn timeline_times(&mut self, ui: &mut Ui, last: u64, now: u64) {
        let host = &self.host;
        let dt = host.tick_length();
        let seconds = |tick: u64| tick as f32 * dt;
        let mib = |b: usize| b as f64 / f64::from(1 << 20);
        let memory = (host.recording_bytes())
            .map(|(bytes, budget)| format!(" · {:.1} of {:.0} MiB", mib(bytes), mib(budget)));
        let text = format!(
            "{:.2} s of {:.2} s{}",
            seconds(now),
            seconds(last),
            memory.unwrap_or_default()
        );
        let here: Vec<String> = (host.events_at(now))
            .map(|event| match event.agent {
                Some(agent) => format!("{} (agent {agent})", event.kind.label()),
                None => event.kind.label().to_owned(),
            })
            .collect();
        let label = ui.add(
            egui::Label::new(text)
                .truncate()
                .sense(egui::Sense::click()),
        );
        let label = label.on_hover_text(
            "Back in the run, Play or Step forks it here: the later ticks are dropped, and \
             edits made here (graph, scene) apply from this tick on. Right-click to set the \
             memory the recording may keep.",
        );
        // Open until a click outside it: a click in the budget's field types a number.
        egui::Popup::context_menu(&label)
            .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside)
            .show(|ui| self.budget_menu(ui));
        // A replay whose run was edited while it ran: from when it runs its own edits, on the
        // line with room for it (the replay's words on the line above fill a narrow preview).
        if let Some(ReplayStatus::Matching { edited, .. }) = self.host.replay_status()
            && let Some(&from) = edited.first()
        {
            let text = format!("· edited at {:.2} s", from as f32 * dt);
            let note = edits_note(&edited);
            ui.add(egui::Label::new(text).truncate())
                .on_hover_text(note.trim_start_matches(". ").to_owned());
        }
        if !here.is_empty() {
            // After a jump to an event, what the user looks for: in full on hover when cut.
            let here = format!("here: {}", here.join(", "));
            ui.add(egui::Label::new(&here).truncate())
                .on_hover_text(here);
        }
    }

    /// The recording's memory budget, set from the timeline's right-click menu.
    fn budget_menu(&mut self, ui: &mut Ui) {
        use super::super::host::{BUDGET_MIB, MIB};
        let mut mib = (self.host.recording_budget() / MIB) as u32;
        ui.label("Memory the recording may keep");
        let changed = ui
            .add(
                egui::DragValue::new(&mut mib)
                    .range(BUDGET_MIB)
                    .speed(4.0)
                    .suffix(" MiB"),
            )
            .on_hover_text(
                "Past it, every other keyframe goes (going back then steps more ticks), then \
                 the oldest seconds of the run",
            )
            .changed();
        if changed {
            self.host.set_recording_budget(mib);
        }
    }

    /// Back, the slider over the recorded ticks, Forward and Live.
    fn timeline_moves(&mut self, ui: &mut Ui, (first, last): (u64, u64), now: u64) {
        let host = &mut self.host;
        ui.label("Timeline");
        if ui
            .add_enabled(now > first, egui::Button::new("Back"))
            .on_hover_text("Go back one tick (pauses)")
            .clicked()
        {
            host.seek(now - 1);
        }
        let mut at = now;
        // Room left for Forward and Live.
        ui.spacing_mut().slider_width = (ui.available_width() - 120.0).clamp(60.0, 260.0);
        let slider = egui::Slider::new(&mut at, first..=last)
            .show_value(false)
            .clamping(egui::SliderClamping::Always);
        let dragged = ui
            .add(slider)
            .on_hover_text("Drag to any recorded tick (pauses): the run as it was then");
        if dragged.changed() && at != now {
            host.seek(at);
        }
        if ui
            .button("Forward")
            .on_hover_text("One tick on: the recorded tick, or a new one at the end")
            .clicked()
        {
            if now < last {
                host.seek(now + 1);
            } else {
                host.running = false;
                host.step_once();
            }
        }
        // The row keeps its buttons whatever the tick, so it never moves under the pointer.
        if ui
            .add_enabled(now < last, egui::Button::new("Live"))
            .on_hover_text("Go to the last recorded tick")
            .clicked()
        {
            host.seek(last);
        }
    }

    /// Playing backwards, and the buttons that jump to the previous or next event of the
    /// kind chosen.
    fn timeline_events(&mut self, ui: &mut Ui, (first, _): (u64, u64), now: u64) {
        if self.host.running {
            // Play forwards ends playing backwards.
            self.timeline.backwards = false;
        }
        let back = &mut self.timeline.backwards;
        let label = if *back { "⏸" } else { "⏴⏴" };
        if ui
            .add_enabled(*back || now > first, egui::Button::new(label))
            .on_hover_text("Play the run backwards, a tick a frame, to its start (⏸ stops)")
            .clicked()
        {
            *back = !*back;
            if !*back {
                // Stopped: the stalled agents of the last seconds seen again.
                self.host.seek(now);
            }
        }
        if self.timeline.backwards {
            if now > first {
                self.host.seek_watching(now - 1, false);
                ui.ctx().request_repaint();
            } else {
                self.timeline.backwards = false;
                self.host.seek(now);
            }
        }
        let kind = self.timeline.kind;
        let kinds = |kind: Option<EventKind>| kind.map_or("any event", EventKind::label);
        if ui
            .add_enabled(
                self.host.event_tick(now, false, kind).is_some(),
                egui::Button::new("⏴ event"),
            )
            .on_hover_text(format!("Go back to the last tick with {}", kinds(kind)))
            .clicked()
            && let Some(tick) = self.host.event_tick(now, false, kind)
        {
            self.timeline.backwards = false;
            self.host.seek(tick);
        }
        egui::ComboBox::from_id_salt("timeline-event")
            .selected_text(kinds(kind))
            .width(80.0)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut self.timeline.kind, None, kinds(None));
                for each in EventKind::ALL {
                    ui.selectable_value(&mut self.timeline.kind, Some(each), each.label());
                }
            });
        if ui
            .add_enabled(
                self.host.event_tick(now, true, kind).is_some(),
                egui::Button::new("event ⏵"),
            )
            .on_hover_text(format!("Go on to the next tick with {}", kinds(kind)))
            .clicked()
            && let Some(tick) = self.host.event_tick(now, true, kind)
        {
            self.timeline.backwards = false;
            self.host.seek(tick);
        }
    }
}

impl Preview {
    /// While a replay file plays: how far its run was checked against the recording, or why
    /// checking stopped (a tick that differs, an edit), in full on hover.
    fn timeline_replay(&self, ui: &mut Ui) {
        let Some(status) = self.host.replay_status() else {
            return;
        };
        let (text, color, hover) = match status {
            ReplayStatus::Matching {
                name,
                matched,
                last,
                edited,
            } => (
                format!("Replay: {matched}/{last} as recorded"),
                egui::Color32::from_rgb(120, 200, 120),
                format!(
                    "{name}: every tick from 0 to {matched} is the recorded state, bit for \
                         bit; the run pauses at the recording's last tick ({last}){}",
                    edits_note(&edited)
                ),
            ),
            ReplayStatus::Differs { why } => (
                "Replay: differs from the recording".to_owned(),
                egui::Color32::from_rgb(235, 110, 90),
                why,
            ),
            ReplayStatus::Left { why } => (
                "Replay left: edited".to_owned(),
                egui::Color32::from_rgb(235, 190, 90),
                why,
            ),
        };
        ui.add(egui::Label::new(egui::RichText::new(text).color(color)).truncate())
            .on_hover_text(hover);
    }

    /// While a fork runs: the button that puts the run it left back, and how many agents
    /// stand apart from their ghosts.
    fn timeline_fork(&mut self, ui: &mut Ui) {
        let Some(from) = self.host.forked_at() else {
            return;
        };
        let apart = self.host.agents_off_their_ghosts();
        let hover = format!(
            "This run forked at {:.2} s; the run as it was shows as ghosts{}. Original run puts \
             it back on the timeline (the edit stays in the graph or scene: undo it to run as \
             before)",
            from as f32 * self.host.tick_length(),
            apart.map_or(String::new(), |n| format!(", {n} agents apart from theirs"))
        );
        if ui.button("Original run").on_hover_text(hover).clicked() {
            self.host.back_to_original();
        }
        if let Some(apart) = apart {
            ui.label(format!("{apart} apart"));
        }
    }
}

/// What the timeline keeps between frames: the kind of event its buttons jump to, and whether
/// it plays backwards.
#[derive(Clone, Copy, Debug, Default)]
pub struct TimelineState {
    /// The kind of event to jump to (any with `None`).
    pub kind: Option<EventKind>,
    /// Whether the run plays backwards, a tick a frame.
    pub backwards: bool,
}

/// What a replay's own edits (at the ticks `edited`) mean for what the editor shows, as a
/// sentence to follow another; empty without edits.
fn edits_note(edited: &[u64]) -> String {
    if edited.is_empty() {
        return String::new();
    }
    let ticks: Vec<String> = edited.iter().map(u64::to_string).collect();
    format!(
        ". The run puts in its own edits (a graph swapped in, the scene edited) at tick {}: \
         from there it runs the graph and scene it had then, not the files shown",
        ticks.join(", ")
    )
}
