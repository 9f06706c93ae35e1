//! The names a field's picker offers: what the open scene defines and what the graph uses
//! that the scene lacks, per kind (targets, paths, flow fields, tags, own goals, jump links).

use std::collections::BTreeMap;

use graph_runtime::{NameKind, Node, Target};

/// Names of one kind a picker offers: those the open scene has, and those only the graph
/// names (offered too, marked as missing from the scene).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameList {
    /// Names the open scene defines, sorted.
    pub scene: Vec<String>,
    /// Names the graph uses that the open scene does not define, sorted.
    pub graph_only: Vec<String>,
}

impl NameList {
    /// The first name to offer: the scene's, else the graph's.
    pub fn first(&self) -> Option<&String> {
        self.scene.first().or_else(|| self.graph_only.first())
    }

    /// Whether the open scene defines `name`.
    pub fn in_scene(&self, name: &str) -> bool {
        self.scene.iter().any(|n| n == name)
    }

    fn tidy(&mut self) {
        for list in [&mut self.scene, &mut self.graph_only] {
            list.retain(|name| !name.trim().is_empty());
            list.sort();
            list.dedup();
        }
        let scene = &self.scene;
        self.graph_only.retain(|name| !scene.contains(name));
    }
}

/// Names the pickers offer: what the open scene has now, and what the graph names.
#[derive(Clone, Debug, Default)]
pub struct Names {
    /// Declared graph parameters.
    pub parameters: Vec<String>,
    /// Named targets (the scene's always include `cursor`, which follows the mouse).
    pub targets: NameList,
    /// Paths.
    pub paths: NameList,
    /// Flow fields.
    pub flow_fields: NameList,
    /// Tags the scene's groups carry.
    pub tags: NameList,
    /// Names of the agents' own points and routes (the scene groups' goals).
    pub own: NameList,
    /// Jump links.
    pub jump_links: NameList,
}

impl Names {
    /// The names `scene` defines (the preview's scene, as it is now).
    pub fn from_scene(scene: &graph_runtime::Scene) -> Self {
        let mut names = Self::default();
        names.targets.scene.push("cursor".to_owned());
        names.targets.scene.extend(scene.targets.keys().cloned());
        names.paths.scene.extend(scene.paths.keys().cloned());
        names
            .flow_fields
            .scene
            .extend(scene.flow_fields.keys().cloned());
        names
            .tags
            .scene
            .extend(scene.groups.iter().flat_map(|g| g.tags.iter().cloned()));
        names
            .own
            .scene
            .extend(scene.groups.iter().flat_map(|g| g.goals.keys().cloned()));
        names
            .jump_links
            .scene
            .extend(scene.jump_links.keys().cloned());
        names.tidy();
        names
    }

    /// These names plus the graph's parameters and every name its nodes use that the scene
    /// does not have.
    #[must_use]
    pub fn with_graph<'a>(
        mut self,
        parameters: &BTreeMap<String, f32>,
        nodes: impl Iterator<Item = &'a Node>,
    ) -> Self {
        self.parameters = parameters.keys().cloned().collect();
        for node in nodes {
            for (_, target) in node.targets() {
                match target {
                    Target::Named(name) => self.targets.graph_only.push(name.clone()),
                    Target::NearestTagged(tag) => self.tags.graph_only.push(tag.clone()),
                    Target::Own(name) => self.own.graph_only.push(name.clone()),
                    Target::Point(..) => {}
                }
            }
            for named in node.names() {
                let list = match named.kind {
                    NameKind::Path if node.follows_own_path() => &mut self.own,
                    NameKind::Path => &mut self.paths,
                    NameKind::FlowField => &mut self.flow_fields,
                    NameKind::JumpLink => &mut self.jump_links,
                    // Files are picked with the file dialog, not from the scene's names.
                    NameKind::GraphFile => continue,
                };
                list.graph_only.push(named.name.to_owned());
            }
        }
        self.tidy();
        self
    }

    fn tidy(&mut self) {
        for list in [
            &mut self.targets,
            &mut self.paths,
            &mut self.flow_fields,
            &mut self.tags,
            &mut self.own,
            &mut self.jump_links,
        ] {
            list.tidy();
        }
    }
}
