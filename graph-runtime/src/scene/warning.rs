//! What a scene runs with but may surprise its designer (a tag no agent carries yet, a facing
//! nothing turns).

/// Something in a scene that runs, but probably not as the designer expects. Warnings never
/// stop a scene; [`crate::Simulation::warnings`] lists them and `steergraph check` prints them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SceneWarning {
    /// A `NearestTagged` target names a tag no agent carries (yet): those nodes return zero
    /// until an agent with the tag exists (games may spawn tagged agents later and rebind).
    #[error(
        "{origin}: group \"{group}\" ({graph}): no agent carries the tag \"{tag}\" yet; nodes aiming at it steer with zero"
    )]
    TagNotCarried {
        /// The scene file.
        origin: String,
        /// The group whose graph names the tag.
        group: String,
        /// The group's graph file.
        graph: String,
        /// The tag.
        tag: String,
    },
    /// The group's agents face independently of their motion, but no node of their graph
    /// turns the facing: each keeps the facing it spawned with.
    #[error(
        "{origin}: group \"{group}\" ({graph}): independent facing, but no node turns it, so agents keep facing where they started; add Face, LookWhereYouAreGoing or ReachOrientation"
    )]
    FacingNeverTurns {
        /// The scene file.
        origin: String,
        /// The group.
        group: String,
        /// The group's graph file.
        graph: String,
    },
}
