//! Handles: the numbers C holds instead of pointers to Rust objects.
//!
//! A handle packs the object's kind (top 8 bits), a generation (next 24) and a slot index
//! (low 32). Freeing an object bumps its slot's generation, so a handle used after free, a
//! handle of another kind or a made-up number is refused with an error, never dereferenced.
//! Zero is never a handle. Objects live behind `Arc<Mutex<_>>`: a call clones the `Arc` under
//! the registry's lock and works on the object outside it, so calls on different objects run
//! in parallel and calls on the same object from two threads take turns.

use std::any::Any;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::kinds::Kind;
use crate::status::{Failure, SgStatus};

/// One object of any kind.
type Object = Arc<dyn Any + Send + Sync>;

struct Slot {
    generation: u32,
    tag: u8,
    object: Option<Object>,
}

/// Every object by slot, and the slots free for reuse.
struct Registry {
    slots: Vec<Slot>,
    free: Vec<usize>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    slots: Vec::new(),
    free: Vec::new(),
});

const GENERATIONS: u32 = 1 << 24;
/// Slots beyond this are never made: a handle's index has 32 bits.
const MAX_SLOTS: usize = u32::MAX as usize;

fn registry() -> MutexGuard<'static, Registry> {
    // The registry's own code cannot panic while holding the lock; a poisoned lock still
    // holds a consistent list.
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

fn split(handle: u64) -> (u8, u32, usize) {
    let tag = (handle >> 56) as u8;
    let generation = ((handle >> 32) as u32) & (GENERATIONS - 1);
    let index = (handle & u64::from(u32::MAX)) as usize;
    (tag, generation, index)
}

fn join(tag: u8, generation: u32, index: usize) -> u64 {
    (u64::from(tag) << 56) | (u64::from(generation) << 32) | index as u64
}

/// The name of the kind with `tag`, for messages.
fn kind_name(tag: u8) -> &'static str {
    crate::kinds::name_of(tag).unwrap_or("unknown kind")
}

/// Stores `object` and returns its new handle.
pub(crate) fn insert<T: Kind>(object: T) -> Result<u64, Failure> {
    let object: Object = Arc::new(Mutex::new(object));
    let mut registry = registry();
    if let Some(index) = registry.free.pop()
        && let Some(slot) = registry.slots.get_mut(index)
    {
        slot.tag = T::TAG;
        slot.object = Some(object);
        return Ok(join(T::TAG, slot.generation, index));
    }
    if registry.slots.len() >= MAX_SLOTS {
        return Err(Failure::invalid("too many live handles (4,294,967,295)"));
    }
    registry.slots.push(Slot {
        generation: 1,
        tag: T::TAG,
        object: Some(object),
    });
    Ok(join(T::TAG, 1, registry.slots.len() - 1))
}

/// The object `handle` names, if it is a live `T`. `what` names the argument in messages.
pub(crate) fn get<T: Kind>(handle: u64, what: &str) -> Result<Arc<Mutex<T>>, Failure> {
    let refused = |why: String| Failure::new(SgStatus::BadHandle, format!("{what}: {why}"));
    if handle == 0 {
        return Err(refused(format!("the {} handle is zero", T::NAME)));
    }
    let (tag, generation, index) = split(handle);
    if tag != T::TAG {
        return Err(refused(format!(
            "handle {handle:#x} is not a {} (its tag says {})",
            T::NAME,
            kind_name(tag)
        )));
    }
    let object = {
        registry()
            .slots
            .get(index)
            .filter(|slot| slot.generation == generation && slot.tag == tag)
            .and_then(|slot| slot.object.clone())
    };
    let object = object.ok_or_else(|| {
        refused(format!(
            "{} handle {handle:#x} was freed or never made",
            T::NAME
        ))
    })?;
    object
        .downcast::<Mutex<T>>()
        .map_err(|_| refused(format!("handle {handle:#x} is not a {}", T::NAME)))
}

/// Frees the object `handle` names: the handle is invalid from now on. Zero is accepted and
/// does nothing (like `free(NULL)`); a second free of the same handle is an error.
pub(crate) fn remove<T: Kind>(handle: u64, what: &str) -> Result<(), Failure> {
    if handle == 0 {
        return Ok(());
    }
    // Checks the kind and liveness with the same messages as `get`.
    get::<T>(handle, what)?;
    let (_, generation, index) = split(handle);
    let object = {
        let mut registry = registry();
        let object = match registry.slots.get_mut(index) {
            Some(slot) if slot.generation == generation && slot.object.is_some() => {
                slot.generation = (slot.generation + 1) % GENERATIONS;
                if slot.generation == 0 {
                    slot.generation = 1;
                }
                slot.object.take()
            }
            // Freed by another thread between the check and now.
            _ => None,
        };
        if object.is_some() {
            registry.free.push(index);
        }
        object
    };
    // Dropped here, outside the registry's lock (a simulation may be large).
    drop(object);
    Ok(())
}

/// Locks an object for one call. A panic in an earlier call on it leaves it poisoned: it is
/// refused from then on rather than used half-changed.
pub(crate) fn lock<T: Kind>(object: &Mutex<T>) -> Result<MutexGuard<'_, T>, Failure> {
    object.lock().map_err(|_| {
        Failure::new(
            SgStatus::Panic,
            format!(
                "this {} was being changed when an internal error stopped a call; free it and make a new one",
                T::NAME
            ),
        )
    })
}

/// Looks `handle` up and runs `body` on the locked object.
pub(crate) fn with<T: Kind, R>(
    handle: u64,
    what: &str,
    body: impl FnOnce(&mut T) -> Result<R, Failure>,
) -> Result<R, Failure> {
    let object = get::<T>(handle, what)?;
    let mut guard = lock(&object)?;
    body(&mut guard)
}

/// How many objects are alive: every handle made and not yet freed. A program that frees what
/// it made ends with zero (the examples check it: valgrind cannot, since the library's table
/// of handles still points to a forgotten object).
///
/// # Safety
///
/// `count` is valid for writing one `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_live_objects(count: *mut usize) -> crate::SgStatus {
    crate::status::guard(|| {
        let live = registry()
            .slots
            .iter()
            .filter(|slot| slot.object.is_some())
            .count();
        // SAFETY: the caller's pointer.
        unsafe { crate::ptr::put(count, "count", live) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Apple(u32);
    impl Kind for Apple {
        const TAG: u8 = 0xA1;
        const NAME: &'static str = "apple";
    }
    #[derive(Debug)]
    struct Pear;
    impl Kind for Pear {
        const TAG: u8 = 0xA2;
        const NAME: &'static str = "pear";
    }

    #[test]
    fn freed_wrong_and_made_up_handles_are_refused() {
        let apple = insert(Apple(7)).expect("room");
        assert_eq!(with::<Apple, _>(apple, "a", |a| Ok(a.0)).expect("live"), 7);
        let wrong = get::<Pear>(apple, "p").expect_err("an apple is no pear");
        assert_eq!(wrong.status, SgStatus::BadHandle);
        remove::<Apple>(apple, "a").expect("first free");
        let freed = get::<Apple>(apple, "a").expect_err("freed");
        assert!(freed.message.contains("freed"), "{}", freed.message);
        assert_eq!(
            remove::<Apple>(apple, "a").expect_err("double free").status,
            SgStatus::BadHandle
        );
        // The slot is reused with a new generation: the old handle stays dead.
        let again = insert(Apple(8)).expect("room");
        assert_ne!(again, apple);
        assert!(get::<Apple>(apple, "a").is_err());
        assert_eq!(with::<Apple, _>(again, "a", |a| Ok(a.0)).expect("live"), 8);
        assert!(get::<Apple>(0, "a").is_err());
        assert!(get::<Apple>(0xA100_0001_0000_FFFF, "a").is_err());
        remove::<Apple>(again, "a").expect("free");
        remove::<Apple>(0, "a").expect("zero is a no-op");
    }
}
