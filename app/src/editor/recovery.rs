//! Crash recovery: restoring autosaved work (graph, scene, their unsaved edits) as it was,
//! and describing what is open now for the next autosave.

use std::path::PathBuf;

use graph_runtime::{Graph, Scene};

use super::autosave::{Origin, Recovered, Session};
use super::document::Document;
use super::preview::SceneDocument;
use super::{Dialog, EditorApp, presets};

impl EditorApp {
    /// Restores autosaved work as it was: the graph under its file name (or its preset's),
    /// in the scene it ran in, each with its unsaved changes where it had any (they stay
    /// marked unsaved); a document that had none opens again from its file or preset.
    pub(super) fn recover(&mut self) {
        let Some(Dialog::Recover(recovered)) = self.view.dialog.take() else {
            return;
        };
        let Recovered {
            graph,
            scene,
            session,
        } = *recovered;
        let mut recovered_names = Vec::new();
        let graph = match (graph, &session.graph) {
            (Some(graph), origin) => {
                let mut document = Document::new(&graph, origin_file(origin));
                document.mark_unsaved();
                Some((document, origin_preset(origin)))
            }
            (None, Origin::File(path)) => Graph::load(path)
                .ok()
                .map(|graph| (Document::new(&graph, Some(path.clone())), None)),
            (None, Origin::Preset(file)) => presets::GRAPHS
                .iter()
                .find(|p| p.file == file)
                .and_then(|p| Graph::from_ron(p.text, p.file).ok())
                .map(|graph| (Document::new(&graph, None), Some(file.clone()))),
            (None, Origin::New) => None,
        };
        if let Some((document, preset)) = graph {
            self.take_graph(document, preset);
            if self.workspace.document.is_dirty() {
                recovered_names.push(self.workspace.open_graph_name());
            }
        }
        self.workspace.timeline = super::history::Timeline::default();
        let bound = self.workspace.open_graph_name();
        let scene = match (scene, &session.scene) {
            (Some(scene), origin) => {
                let label = origin_name(origin).unwrap_or_else(|| "recovered.scene.ron".to_owned());
                let mut document = SceneDocument::new(scene, origin_file(origin), label);
                document.preset = origin_preset(origin);
                document.mark_unsaved();
                recovered_names.push(document.name());
                Some(document)
            }
            (None, Origin::File(path)) => Scene::load(path).ok().map(|scene| {
                let label = origin_name(&session.scene).unwrap_or_default();
                SceneDocument::new(scene, Some(path.clone()), label)
            }),
            (None, Origin::Preset(file)) => presets::SCENES
                .iter()
                .find(|p| p.file == file)
                .and_then(|p| Scene::from_ron(p.text, p.file).ok())
                .map(|scene| SceneDocument::from_preset(scene, file)),
            (None, Origin::New) => None,
        };
        let scene = scene.unwrap_or_else(|| {
            super::preview::scene_for_graph(&bound, self.workspace.document.path.as_deref())
        });
        self.set_scene(scene, &bound);
        self.status.set(format!(
            "Recovered the unsaved changes to {}, running in {}",
            recovered_names.join(" and "),
            self.workspace.scene.name()
        ));
        self.replay_left_for_recovery();
    }

    /// Where the open graph and the preview's scene came from, for the autosave.
    pub(super) fn session(&self) -> Session {
        let graph = match (&self.workspace.document.path, &self.workspace.preset_name) {
            (Some(path), _) => Origin::File(path.clone()),
            (None, Some(preset)) if !self.workspace.context.is_open() => {
                Origin::Preset(preset.clone())
            }
            _ => Origin::New,
        };
        let scene = &self.workspace.scene;
        let scene = match (&scene.path, &scene.preset) {
            (Some(path), _) => Origin::File(path.clone()),
            (None, Some(preset)) => Origin::Preset(preset.clone()),
            (None, None) => Origin::New,
        };
        Session { graph, scene }
    }

    pub(super) fn discard_recovered(&mut self) {
        self.view.dialog = None;
        self.services.autosave.clear();
        self.services.autosave.clear_scene();
        self.replay_left_for_recovery();
    }
}

/// The file `origin` names, if it is one.
fn origin_file(origin: &Origin) -> Option<PathBuf> {
    match origin {
        Origin::File(path) => Some(path.clone()),
        _ => None,
    }
}

/// The preset `origin` names, if it is one.
fn origin_preset(origin: &Origin) -> Option<String> {
    match origin {
        Origin::Preset(file) => Some(file.clone()),
        _ => None,
    }
}

/// The file name `origin` goes by, if it has one.
fn origin_name(origin: &Origin) -> Option<String> {
    match origin {
        Origin::File(path) => path.file_name().map(|n| n.to_string_lossy().into_owned()),
        Origin::Preset(file) => Some(file.clone()),
        Origin::New => None,
    }
}
