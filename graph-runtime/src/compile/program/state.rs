//! The mutable state one agent carries between ticks for its program: its random stream,
//! its wander angles, its own goals and the velocity its Reciprocal node preferred last.

use glam::Vec2;

use super::Program;
use super::route_slot::RouteSlot;
use crate::{AgentRng, OwnGoals};

/// Wander angles kept inside [`AgentState`] itself; a graph with more Wander nodes spills the
/// rest to the heap. Inline angles keep a tick's state reads contiguous across agents.
const INLINE_WANDER_SLOTS: usize = 4;

/// The mutable per-agent state a program needs: the agent's RNG and wander angles (radians).
#[derive(Clone, Debug)]
pub struct AgentState {
    pub(crate) rng: AgentRng,
    wander_inline: [f32; INLINE_WANDER_SLOTS],
    /// Wander angles beyond the inline ones and Navigate nodes' routes, which most programs
    /// lack: one pointer in every agent's state (8 bytes; two boxed slices took 32).
    extra: Option<Box<Extra>>,
    /// The agent's own points and routes; kept across hot swaps.
    pub own: OwnGoals,
    /// The velocity a Reciprocal node preferred in the agent's last evaluation (units / s),
    /// when `has_preferred` (that evaluation ran one): two fields rather than an `Option`, so
    /// that the flags below fit in the state's 64 bytes.
    preferred: Vec2,
    has_preferred: bool,
    /// The jump links (by their index in the world, below [`crate::limits::MAX_JUMP_LINKS`])
    /// the agent has taken off from; a Jump node gives nothing for a link already made.
    jumped: u32,
    /// Whether the route planner may have something to do for one of its routes
    /// ([`RouteSlot::needs_planner`]): set by its Navigate nodes' evaluation, cleared by the
    /// planner when it is done with the agent; the planner reads the routes of the agents
    /// that ask (and of stuck ones) only. True until the planner has looked once.
    pub(crate) asks_planner: bool,
}

/// What only some programs keep per agent.
#[derive(Clone, Debug, Default)]
struct Extra {
    wander_spill: Vec<f32>,
    /// One route per Navigate node of the program.
    routes: Vec<RouteSlot>,
}

/// A state a re-sort moves in two parts (`simulation/layout.rs`): its plain data, copied
/// with the other arrays in one parallel pass, and what it owns on the heap, handed to its new
/// slot by pointer on one thread (no two slots of one slice are handed to threads at once by
/// index without `unsafe`, which the runtime does not use).
pub(crate) trait TwoParts: Send + Sync + Sized {
    /// A copy of its plain data, owning nothing on the heap: a copy that allocates nothing.
    fn plain_copy(&self) -> Self;
    /// Takes `from`'s plain data; what `self` owns on the heap stays its own.
    fn copy_plain_from(&mut self, from: &Self);
    /// Whether it owns nothing on the heap.
    fn is_plain(&self) -> bool;
    /// Takes what `from` owns on the heap in place of its own, by pointer, leaving `from`
    /// plain.
    fn take_heap_from(&mut self, from: &mut Self);
}

impl TwoParts for AgentState {
    fn plain_copy(&self) -> Self {
        let mut copy = Self::fresh(self.rng.clone());
        copy.copy_plain_from(self);
        copy
    }

    /// Every field is named, so that a field added later is sorted into one part or the
    /// other here.
    #[inline]
    fn copy_plain_from(&mut self, from: &Self) {
        let Self {
            rng,
            wander_inline,
            extra: _,
            own: _,
            preferred,
            has_preferred,
            jumped,
            asks_planner,
        } = from;
        self.rng.clone_from(rng);
        self.wander_inline = *wander_inline;
        self.preferred = *preferred;
        self.has_preferred = *has_preferred;
        self.jumped = *jumped;
        self.asks_planner = *asks_planner;
    }

    /// No spilled wander angles or routes, no own goals.
    #[inline]
    fn is_plain(&self) -> bool {
        self.extra.is_none() && self.own.is_unset()
    }

    /// Its spilled wander angles and routes, and its own goals.
    #[inline]
    fn take_heap_from(&mut self, from: &mut Self) {
        self.extra = from.extra.take();
        self.own = std::mem::take(&mut from.own);
    }
}

impl AgentState {
    /// About how many bytes it keeps on the heap: spilled wander angles, its routes' points
    /// and corridors, and its own goals.
    pub(crate) fn heap_bytes(&self) -> usize {
        let extra = self.extra.as_ref().map_or(0, |extra| {
            let routes: usize = (extra.routes.iter())
                .map(|slot| {
                    let route = &slot.route;
                    route.points.capacity() * size_of::<Vec2>()
                        + (route.jumps.capacity() + route.corridor.capacity()) * size_of::<u32>()
                })
                .sum();
            size_of::<Extra>()
                + extra.wander_spill.capacity() * size_of::<f32>()
                + extra.routes.capacity() * size_of::<RouteSlot>()
                + routes
        });
        extra + self.own.heap_bytes()
    }

    /// The state of agent `agent_index` in a world seeded with `seed`.
    pub fn new(program: &Program, seed: u64, agent_index: u64) -> Self {
        let mut state = Self::fresh(AgentRng::new(seed, agent_index));
        state.fit(program);
        state
    }

    /// A state with random stream `rng` that has done nothing yet: no wander angles, nothing
    /// on the heap, no preferred velocity, no jump made, the planner still to look at it.
    fn fresh(rng: AgentRng) -> Self {
        Self {
            rng,
            wander_inline: [0.0; INLINE_WANDER_SLOTS],
            extra: None,
            own: OwnGoals::default(),
            preferred: Vec2::ZERO,
            has_preferred: false,
            jumped: 0,
            asks_planner: true,
        }
    }

    /// Whether the state has the slots `program` keeps (its wander angles beyond the inline
    /// ones and its routes): [`AgentState::fit`] would change nothing but the planner's flag.
    pub fn fits(&self, program: &Program) -> bool {
        let spilled = (program.wander_slots as usize).saturating_sub(INLINE_WANDER_SLOTS);
        let routes = program.route_slots as usize;
        match &self.extra {
            None => spilled == 0 && routes == 0,
            Some(extra) => {
                (spilled > 0 || routes > 0)
                    && extra.wander_spill.len() == spilled
                    && extra.routes.len() == routes
            }
        }
    }

    /// Makes the state fit `program` after a hot swap: new wander slots start at angle 0,
    /// the RNG stream continues.
    pub fn fit(&mut self, program: &Program) {
        let spilled = (program.wander_slots as usize).saturating_sub(INLINE_WANDER_SLOTS);
        let routes = program.route_slots as usize;
        self.asks_planner = true;
        if spilled == 0 && routes == 0 {
            self.extra = None;
        } else {
            let extra = self.extra.get_or_insert_with(Box::default);
            extra.wander_spill.resize(spilled, 0.0);
            extra.routes.resize_with(routes, RouteSlot::default);
        }
    }

    /// The routes of the program's Navigate nodes, in the order of the nodes' slots.
    pub fn routes(&self) -> &[RouteSlot] {
        self.extra.as_ref().map_or(&[], |extra| &extra.routes)
    }

    /// The same, to plan them.
    pub(crate) fn routes_mut(&mut self) -> &mut [RouteSlot] {
        self.extra
            .as_mut()
            .map_or(&mut [], |extra| &mut extra.routes)
    }

    /// The velocity a Reciprocal node preferred in the agent's last evaluation (units / s),
    /// if one ran: what its stuck clock compares the motion with ([`crate::tick::advance`]).
    pub fn preferred(&self) -> Option<Vec2> {
        self.has_preferred.then_some(self.preferred)
    }

    /// Sets (or, with `None`, clears) the velocity a Reciprocal node preferred.
    pub(crate) fn set_preferred(&mut self, preferred: Option<Vec2>) {
        self.has_preferred = preferred.is_some();
        self.preferred = preferred.unwrap_or(Vec2::ZERO);
    }

    /// Whether the agent has taken off from the world's jump link `link` (its index).
    pub fn has_jumped(&self, link: usize) -> bool {
        link < 32 && self.jumped & (1 << link) != 0
    }

    /// Marks the world's jump link `link` as made: a Jump node on it gives nothing from now on.
    pub fn mark_jumped(&mut self, link: usize) {
        if link < 32 {
            self.jumped |= 1 << link;
        }
    }

    /// The agent's random stream (`BEHAVIORS.md`, "Randomness"), as it stands.
    pub fn rng(&self) -> &AgentRng {
        &self.rng
    }

    /// The wander angle of slot `slot` (radians; the program's Wander nodes are numbered in op
    /// order), zero beyond the program's slots.
    pub fn wander(&self, slot: u32) -> f32 {
        let slot = slot as usize;
        self.wander_inline
            .get(slot)
            .or_else(|| {
                self.extra
                    .as_ref()?
                    .wander_spill
                    .get(slot.wrapping_sub(INLINE_WANDER_SLOTS))
            })
            .copied()
            .unwrap_or(0.0)
    }

    /// Wander's step for slot `slot`: one draw from the agent's RNG turns its angle by up to
    /// `jitter` radians per second over `dt`; returns the new angle (zero for a slot the
    /// program does not have).
    #[inline]
    pub(crate) fn turn_wander(&mut self, slot: u32, jitter: f32, dt: f32) -> f32 {
        let step = crate::behaviors::wander_turn(&mut self.rng, jitter, dt);
        match self.wander_mut(slot) {
            Some(theta) => {
                *theta += step;
                *theta
            }
            None => 0.0,
        }
    }

    /// The wander angle of slot `slot`, if the program has that many Wander nodes.
    #[inline]
    pub(crate) fn wander_mut(&mut self, slot: u32) -> Option<&mut f32> {
        let slot = slot as usize;
        match self.wander_inline.get_mut(slot) {
            Some(theta) => Some(theta),
            None => self
                .extra
                .as_mut()?
                .wander_spill
                .get_mut(slot - INLINE_WANDER_SLOTS),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{AgentState, Extra, TwoParts};
    use crate::{AgentRng, OwnGoals};
    use glam::Vec2;

    /// A re-sort's two parts of a state: the plain copy carries every plain field and owns
    /// nothing; a state given another's plain data keeps its own heap; the heap handed over
    /// is the very same (no copy), and the state it left is plain.
    #[test]
    fn a_state_splits_into_its_plain_data_and_what_it_owns() {
        let mut own = OwnGoals::default();
        own.set_goal("goal", Vec2::new(3.0, 4.0));
        let mut state = AgentState {
            rng: AgentRng::new(7, 11),
            wander_inline: [0.5, 1.0, 1.5, 2.0],
            extra: Some(Box::new(Extra {
                wander_spill: vec![2.5],
                routes: Vec::new(),
            })),
            own,
            preferred: Vec2::new(1.0, -1.0),
            has_preferred: true,
            jumped: 0b101,
            asks_planner: false,
        };
        let plain = state.plain_copy();
        assert!(plain.is_plain() && !state.is_plain());
        assert_eq!(plain.rng(), state.rng());
        assert_eq!(plain.wander_inline, state.wander_inline);
        assert_eq!(plain.preferred(), Some(Vec2::new(1.0, -1.0)));
        assert!(plain.has_jumped(0) && !plain.has_jumped(1) && plain.has_jumped(2));
        assert!(!plain.asks_planner);
        // The spilled angle is on the heap: not in the plain copy.
        assert_eq!((plain.wander(4), state.wander(4)), (0.0, 2.5));

        let mut other = state.plain_copy();
        other.rng = AgentRng::new(1, 2);
        other.preferred = Vec2::ZERO;
        state.copy_plain_from(&other);
        assert_eq!(state.rng(), &AgentRng::new(1, 2));
        assert_eq!(state.preferred(), Some(Vec2::ZERO));
        assert_eq!(
            state.own.goal("goal"),
            Some(Vec2::new(3.0, 4.0)),
            "kept its own"
        );

        let spill = state.extra.as_deref().map(std::ptr::from_ref);
        other.take_heap_from(&mut state);
        assert!(state.is_plain());
        assert_eq!(other.extra.as_deref().map(std::ptr::from_ref), spill);
        assert_eq!(other.own.goal("goal"), Some(Vec2::new(3.0, 4.0)));
        assert_eq!(other.wander(4), 2.5);
    }

    /// Every agent's state streams through the cache each tick: it held 120 bytes when own
    /// goals and spilled wander angles were kept inline (two cache lines), 72 after, and fits
    /// in 64 now (spilled angles and routes behind one pointer, the route planner's flag
    /// beside the preferred velocity's).
    #[test]
    fn an_agent_state_stays_small() {
        assert!(
            size_of::<AgentState>() <= 64,
            "{} bytes",
            size_of::<AgentState>()
        );
    }
}
