//! Instructions waiting to open the session context.

use std::collections::VecDeque;
use std::sync::Mutex;

/// Where an instruction goes in the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Priority {
    /// To the front: it opens the context.
    High,
    /// To the back.
    Normal,
}

/// The session's pending instructions. Shared by the listeners that fill it and the service
/// that drains it, hence the interior lock.
#[derive(Debug, Default)]
pub struct InstructionQueue {
    pending: Mutex<VecDeque<String>>,
}

impl InstructionQueue {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Queues `content`; an identical instruction already pending is not queued again.
    pub fn queue(&self, content: String, priority: Priority) {
        let mut pending = self
            .pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if pending.contains(&content) {
            return;
        }
        match priority {
            Priority::High => pending.push_front(content),
            Priority::Normal => pending.push_back(content),
        }
    }

    /// Takes every pending instruction, front first.
    pub fn drain(&self) -> Vec<String> {
        let mut pending = self
            .pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        pending.drain(..).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priority_items_come_first_in_reverse_order_of_queueing_then_normal_ones() {
        let queue = InstructionQueue::new();
        queue.queue("normal 1".into(), Priority::Normal);
        queue.queue("priority 1".into(), Priority::High);
        queue.queue("normal 2".into(), Priority::Normal);
        queue.queue("priority 2".into(), Priority::High);
        assert_eq!(
            queue.drain(),
            vec!["priority 2", "priority 1", "normal 1", "normal 2"]
        );
        assert!(queue.drain().is_empty());
    }

    #[test]
    fn an_identical_pending_instruction_is_not_queued_twice() {
        let queue = InstructionQueue::new();
        queue.queue("same".into(), Priority::Normal);
        queue.queue("same".into(), Priority::High);
        assert_eq!(queue.drain(), vec!["same"]);
        queue.queue("same".into(), Priority::High);
        assert_eq!(
            queue.drain(),
            vec!["same"],
            "once drained, it may be queued again"
        );
    }
}
