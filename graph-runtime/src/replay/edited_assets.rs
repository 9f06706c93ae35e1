//! A replay file's scene as its run had it at a tick: the scene loaded from disk with the
//! edits the run had made by then written into it (the last scene edit, the targets as
//! moved, each group's last graph swapped in), so that what is proven on the run from that
//! tick (a fix, `crate::diagnose::propose_fixes`) runs on the edited run, not on the files.

use super::ReplayFile;
use crate::SceneAssets;

impl ReplayFile {
    /// `assets` (the run's scene as [`ReplayFile::open_with_assets`] loaded it) with the edits
    /// the run had made by the step from `tick`: the scene's bounds, obstacles, walls, gaps,
    /// paths and jump links as last edited, its targets as last moved, and for each group
    /// whose graph was swapped in, that graph (under the name `"<its file> (as edited at tick
    /// N)"`, its values as the group's parameters, its limits and turning as the group's own).
    /// `assets` as they are for a run without edits (nothing is copied).
    pub fn assets_at(&self, mut assets: SceneAssets, tick: u64) -> SceneAssets {
        // The graph files the groups ran as the scene has them, before any swap renames one.
        let files: Vec<String> = (assets.scene.groups.iter())
            .map(|group| group.graph.clone())
            .collect();
        for change in self.edits.changes().iter().take_while(|c| c.tick <= tick) {
            if let Some(edit) = &change.scene {
                edit.write_into(&mut assets.scene);
            }
            if let Some(targets) = &change.targets {
                assets.scene.targets = targets.iter().cloned().collect();
            }
            for swap in &change.graphs {
                let (Some(file), Some(graph), Some(program)) = (
                    files.get(swap.group),
                    self.edits.graphs.get(swap.graph),
                    self.edits.programs.get(swap.graph),
                ) else {
                    continue;
                };
                let name = format!("{file} (as edited at tick {})", change.tick);
                assets.graphs.insert(name.clone(), graph.clone());
                let parameters = (program.parameter_names().iter().cloned())
                    .zip(swap.parameters.iter().copied())
                    .collect();
                if let Some(group) = assets.scene.groups.get_mut(swap.group) {
                    group.graph = name;
                    group.parameters = parameters;
                    group.vehicle = Some(swap.vehicle);
                    group.turning = Some(swap.turning);
                }
            }
        }
        assets
    }
}
