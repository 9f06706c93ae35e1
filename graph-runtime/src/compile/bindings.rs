//! A program's names (paths, flow fields, targets, tags, jump links) resolved against a world.

use std::fmt;
use std::sync::Arc;

use super::{Program, TagMembers};
use crate::World;

/// Tag names of a population, each given one bit of a [`TagMask`] (at most 64 tags).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TagTable {
    names: Vec<String>,
}

/// The set of tags an agent carries, one bit per tag of a [`TagTable`].
pub type TagMask = u64;

impl TagTable {
    /// The mask of `tags`, registering new names. `None` when more than 64 distinct tags
    /// would be needed.
    pub fn mask<S: AsRef<str>>(&mut self, tags: &[S]) -> Option<TagMask> {
        let mut mask = 0;
        for tag in tags {
            let tag = tag.as_ref();
            let bit = match self.names.iter().position(|n| n == tag) {
                Some(bit) => bit,
                None => {
                    if self.names.len() >= 64 {
                        return None;
                    }
                    self.names.push(tag.to_owned());
                    self.names.len() - 1
                }
            };
            mask |= 1 << bit;
        }
        Some(mask)
    }

    /// The bit of `tag`, if some agent carries it.
    pub fn get(&self, tag: &str) -> Option<TagMask> {
        self.names.iter().position(|n| n == tag).map(|bit| 1 << bit)
    }

    /// The registered names, by bit.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}

/// What a name in a program refers to that the world lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BindError {
    /// No path of that name.
    UnknownPath(String),
    /// No flow field of that name.
    UnknownFlowField(String),
    /// No named target of that name.
    UnknownTarget(String),
    /// No agent carries that tag.
    UnknownTag(String),
    /// No jump link of that name.
    UnknownJumpLink(String),
}

impl BindError {
    /// Whether this is only a warning: a tag no agent carries yet (games spawn tagged agents
    /// later), as opposed to a name the world lacks.
    pub fn is_warning(&self) -> bool {
        matches!(self, Self::UnknownTag(_))
    }
}

impl fmt::Display for BindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownPath(name) => write!(f, "no path named \"{name}\""),
            Self::UnknownFlowField(name) => write!(f, "no flow field named \"{name}\""),
            Self::UnknownTarget(name) => write!(f, "no target named \"{name}\""),
            Self::UnknownTag(name) => write!(f, "no agent carries the tag \"{name}\""),
            Self::UnknownJumpLink(name) => write!(f, "no jump link named \"{name}\""),
        }
    }
}

impl std::error::Error for BindError {}

/// A program's names resolved against one world and tag table. An unresolved name makes its
/// node return zero (and is reported by [`Bindings::new`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bindings {
    pub(crate) paths: Vec<Option<usize>>,
    pub(crate) fields: Vec<Option<usize>>,
    pub(crate) targets: Vec<Option<usize>>,
    pub(crate) tags: Vec<Option<TagMask>>,
    pub(crate) jump_links: Vec<Option<usize>>,
    /// The agents carrying each tag, when a simulation gave them ([`Self::set_members`]);
    /// without them `NearestTagged` reads every agent.
    pub(crate) members: Option<Arc<TagMembers>>,
}

impl Bindings {
    /// Whether these bindings, made for `program`, still say what resolving its names in
    /// `world` says: the same place for every path, flow field, target and jump link found
    /// there, and none for each one missing. A world other than the one they were made for
    /// may hold the same names at other places (or other names at the same places).
    pub fn hold_in(&self, program: &Program, world: &World) -> bool {
        let same =
            |names: &[String], bound: &[Option<usize>], find: &dyn Fn(&str) -> Option<usize>| {
                names.len() == bound.len()
                    && names
                        .iter()
                        .zip(bound)
                        .all(|(name, &place)| find(name) == place)
            };
        same(&program.path_names, &self.paths, &|n| world.path_index(n))
            && same(&program.field_names, &self.fields, &|n| {
                world.flow_field_index(n)
            })
            && same(&program.target_names, &self.targets, &|n| {
                world.target_index(n)
            })
            && same(&program.jump_link_names, &self.jump_links, &|n| {
                world.jump_link_index(n)
            })
    }

    /// Resolves every name of `program`; the errors list what did not resolve.
    pub fn new(program: &Program, world: &World, tags: &TagTable) -> (Self, Vec<BindError>) {
        let mut errors = Vec::new();
        let mut resolve = |names: &[String],
                           find: &dyn Fn(&str) -> Option<usize>,
                           error: fn(String) -> BindError| {
            names
                .iter()
                .map(|name| {
                    let found = find(name);
                    if found.is_none() {
                        errors.push(error(name.clone()));
                    }
                    found
                })
                .collect::<Vec<_>>()
        };
        let paths = resolve(
            &program.path_names,
            &|n| world.path_index(n),
            BindError::UnknownPath,
        );
        let fields = resolve(
            &program.field_names,
            &|n| world.flow_field_index(n),
            BindError::UnknownFlowField,
        );
        let targets = resolve(
            &program.target_names,
            &|n| world.target_index(n),
            BindError::UnknownTarget,
        );
        let jump_links = resolve(
            &program.jump_link_names,
            &|n| world.jump_link_index(n),
            BindError::UnknownJumpLink,
        );
        let tag_masks = program
            .tag_names
            .iter()
            .map(|name| {
                let mask = tags.get(name);
                if mask.is_none() {
                    errors.push(BindError::UnknownTag(name.clone()));
                }
                mask
            })
            .collect();
        (
            Self {
                paths,
                fields,
                targets,
                tags: tag_masks,
                jump_links,
                members: None,
            },
            errors,
        )
    }

    /// Reads the members of each tag from `members` from now on (built from the tags of the
    /// agents the context will hold).
    pub(crate) fn set_members(&mut self, members: Arc<TagMembers>) {
        self.members = Some(members);
    }
}
