//! The macro that turns the node table (`node.rs`) into the [`crate::Node`] enum, its
//! [`crate::NodeKind`] catalogue and the generic views of every node (numbers with ranges,
//! input ports, targets, defaults), so each kind is described once.
//!
//! A table row is a kind: its docs, `Name: Category, Output, Reads, "one-line description"`,
//! then its fields, each `name: Type = default => Shape` (`shape.rs`), with their docs and
//! serde attributes. A kind without fields is written without braces (a unit variant in RON).

/// The slot names of field `$field`: its own and its parts' (`target.x`, `bounds.min_x`).
macro_rules! field_names {
    ($field:ident) => {
        $crate::graph::shape::FieldNames {
            field: stringify!($field),
            x: concat!(stringify!($field), ".x"),
            y: concat!(stringify!($field), ".y"),
            corners: [
                concat!(stringify!($field), ".min_x"),
                concat!(stringify!($field), ".min_y"),
                concat!(stringify!($field), ".max_x"),
                concat!(stringify!($field), ".max_y"),
            ],
        }
    };
}

/// Declares [`crate::Node`], [`crate::NodeKind`] and their generic views from the node table.
macro_rules! node_table {
    ($(
        $(#[$kind_attr:meta])*
        $kind:ident: $category:ident, $output:ident, $reads:ident, $description:literal
        $({
            $(
                $(#[$field_attr:meta])*
                $field:ident: $ty:ty = $default:expr => $shape:expr
            ),* $(,)?
        })?
        ;
    )*) => {
        /// Every node a graph can hold: behaviors, combiners, sensors, conditions and the
        /// output.
        ///
        /// Distances are world units, times seconds, angles degrees. Behaviors and combiners
        /// output a steering force; sensors a scalar; conditions a yes/no. The exact formulas
        /// are the behavior contract's (`graph-runtime/BEHAVIORS.md`).
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub enum Node {
            $(
                $(#[$kind_attr])*
                $kind $({ $( $(#[$field_attr])* $field: $ty ),* })?,
            )*
        }

        /// The kind of a [`Node`], without its fields: for catalogues, menus and messages.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum NodeKind {
            $(
                #[doc = $description]
                $kind,
            )*
        }

        impl NodeKind {
            /// Every kind, in catalogue order.
            pub const ALL: &'static [NodeKind] = &[$(NodeKind::$kind),*];

            /// The name used in RON files and menus.
            pub fn name(self) -> &'static str {
                match self { $(Self::$kind => stringify!($kind)),* }
            }

            /// The family the kind belongs to.
            pub fn category(self) -> Category {
                match self { $(Self::$kind => Category::$category),* }
            }

            /// What the node's output carries.
            #[inline]
            pub fn output(self) -> PortType {
                match self { $(Self::$kind => PortType::$output),* }
            }

            /// A one-line description.
            pub fn description(self) -> &'static str {
                match self { $(Self::$kind => $description),* }
            }

            /// What the node reads besides its own agent, the world and the parameters.
            pub fn reads(self) -> Reads {
                match self { $(Self::$kind => Reads::$reads),* }
            }

            /// Whether the node has input ports (a combiner, a condition over conditions, the
            /// Output): it is evaluated after them. A node without is a leaf.
            #[inline]
            pub fn takes_inputs(self) -> bool {
                match self {
                    $(Self::$kind => false $($( || Shape::<$ty>::is_input(&$shape) )*)?),*
                }
            }

            /// Whether the node has a list of inputs the designer grows and shrinks.
            pub fn has_input_list(self) -> bool {
                match self {
                    $(Self::$kind => false $($( || Shape::<$ty>::is_list(&$shape) )*)?),*
                }
            }

            /// Whether the node has a target, which may be another agent (`NearestTagged`).
            pub fn aims_at_targets(self) -> bool {
                match self {
                    $(Self::$kind => false $($( || Shape::<$ty>::is_target(&$shape) )*)?),*
                }
            }

            /// A new node of this kind with sensible defaults and unconnected inputs.
            pub fn instantiate(self) -> Node {
                match self {
                    $(Self::$kind => Node::$kind $({ $( $field: $default ),* })?),*
                }
            }
        }

        impl Node {
            /// The node's kind.
            pub fn kind(&self) -> NodeKind {
                match self { $(Self::$kind { .. } => NodeKind::$kind),* }
            }

            /// Every numeric field with its range, in display order (target coordinates
            /// included).
            pub fn numbers(&self) -> Vec<NumberField<'_>> {
                let mut out = Vec::new();
                match self {
                    $(Self::$kind $({ $($field),* })? => {
                        $($( Shape::<$ty>::numbers(&$shape, &field_names!($field), $field, &mut out); )*)?
                    })*
                }
                out
            }

            /// The number at `slot` (as listed by [`Node::numbers`]), for editing.
            pub fn number_mut(&mut self, slot: Slot) -> Option<&mut Number> {
                match self {
                    $(Self::$kind $({ $($field),* })? => {
                        $($(
                            if let Some(number) =
                                Shape::<$ty>::number_mut(&$shape, &field_names!($field), $field, slot)
                            {
                                return Some(number);
                            }
                        )*)?
                    })*
                }
                None
            }

            /// Every input port, in display order.
            pub fn inputs(&self) -> Vec<InputPort> {
                let mut out = Vec::new();
                match self {
                    $(Self::$kind $({ $($field),* })? => {
                        $($( Shape::<$ty>::inputs(&$shape, &field_names!($field), $field, &mut out); )*)?
                    })*
                }
                out
            }

            /// The link at `slot`, for editing connections.
            pub fn input_mut(&mut self, slot: Slot) -> Option<&mut Link> {
                match self {
                    $(Self::$kind $({ $($field),* })? => {
                        $($(
                            if let Some(link) =
                                Shape::<$ty>::input_mut(&$shape, &field_names!($field), $field, slot)
                            {
                                return Some(link);
                            }
                        )*)?
                    })*
                }
                None
            }

            /// The targets the node refers to, with their field names.
            pub fn targets(&self) -> Vec<(&'static str, &Target)> {
                let mut out = Vec::new();
                match self {
                    $(Self::$kind $({ $($field),* })? => {
                        $($( Shape::<$ty>::targets(&$shape, &field_names!($field), $field, &mut out); )*)?
                    })*
                }
                out
            }

            /// The names of things outside the graph the node refers to (paths, flow fields,
            /// jump links, graph files), in field order.
            pub fn names(&self) -> Vec<NameField<'_>> {
                let mut out = Vec::new();
                match self {
                    $(Self::$kind $({ $($field),* })? => {
                        $($( Shape::<$ty>::names(&$shape, &field_names!($field), $field, &mut out); )*)?
                    })*
                }
                out
            }

            /// The name in field `wanted` (as listed by [`Node::names`]), for editing.
            pub fn name_mut(&mut self, wanted: &str) -> Option<&mut String> {
                match self {
                    $(Self::$kind $({ $($field),* })? => {
                        $($(
                            if let Some(name) =
                                Shape::<$ty>::name_mut(&$shape, &field_names!($field), $field, wanted)
                            {
                                return Some(name);
                            }
                        )*)?
                    })*
                }
                None
            }

            /// The fields edited as choices (`choice.rs`), in field order: what an editor
            /// draws by type beside the numbers, ports and names.
            pub fn choices_mut(&mut self) -> Vec<Choice<'_>> {
                let mut out = Vec::new();
                match self {
                    $(Self::$kind $({ $($field),* })? => {
                        $($( Shape::<$ty>::choices(&$shape, &field_names!($field), $field, &mut out); )*)?
                    })*
                }
                out
            }

            /// The target in field `field` (as listed by [`Node::targets`]), for editing.
            pub fn target_mut(&mut self, wanted: &str) -> Option<&mut Target> {
                match self {
                    $(Self::$kind $({ $($field),* })? => {
                        $($(
                            if let Some(target) =
                                Shape::<$ty>::target_mut(&$shape, &field_names!($field), $field, wanted)
                            {
                                return Some(target);
                            }
                        )*)?
                    })*
                }
                None
            }
        }
    };
}
