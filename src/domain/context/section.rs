//! A block of the context: fixed lines and shrinkable items, measured in UTF-16 units (the
//! client's measure of its cap).

/// One part of the session context. Fixed lines always stay; items may be dropped from the end
/// to fit the budget, and then a closing line says how many were dropped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Section {
    lines: Vec<Line>,
    hidden: usize,
    chars: usize,
    /// Items (shrinkable lines) still held: composing asks after every dropped item.
    items: usize,
    /// Where the footer starts: lines that close the section, after the count of dropped
    /// items (a pointer to the full text reads last).
    footer: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Line {
    text: String,
    shrinkable: bool,
    chars: usize,
    key: Option<String>,
}

impl Section {
    /// A section with nothing in it; composing skips it.
    pub fn empty() -> Self {
        Self::default()
    }

    /// A section of lines that must stay together or not at all.
    pub fn fixed(lines: Vec<String>) -> Self {
        let mut section = Self::empty();
        for line in lines {
            section.push_fixed(line);
        }
        section
    }

    /// A section that starts with a fixed heading, to be followed by items.
    pub fn items(heading: String) -> Self {
        Self::fixed(vec![heading])
    }

    /// Adds a line that stays when the section shrinks.
    pub fn push_fixed(&mut self, text: String) {
        self.push(text, false, None);
    }

    /// Adds a closing line that stays, after the count of dropped items.
    pub fn push_footer(&mut self, text: String) {
        self.footer.get_or_insert(self.lines.len());
        self.push_fixed(text);
    }

    /// Adds a line the section may drop to fit the budget.
    pub fn push_item(&mut self, text: String) {
        self.push(text, true, None);
    }

    /// Adds a droppable line that stands for something with an id (a learning), so the caller
    /// can learn from [`Section::keys`] which of them survived the budget.
    pub fn push_keyed_item(&mut self, text: String, key: String) {
        self.push(text, true, Some(key));
    }

    fn push(&mut self, text: String, shrinkable: bool, key: Option<String>) {
        // Measured as the client measures it: JavaScript counts UTF-16 units, so an emoji
        // costs two of the cap's 10,000, not one.
        let chars = text.encode_utf16().count();
        self.chars += chars + usize::from(!self.lines.is_empty());
        self.items += usize::from(shrinkable);
        self.lines.push(Line {
            text,
            shrinkable,
            chars,
            key,
        });
    }

    /// Keys of the keyed items still in the section, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().filter_map(|line| line.key.as_deref())
    }

    /// True when it holds no line.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Whether an item is left to drop.
    pub fn can_shrink(&self) -> bool {
        self.items > 0
    }

    /// The text of the last item still held, if any.
    pub fn last_item(&self) -> Option<&str> {
        self.lines
            .iter()
            .rfind(|line| line.shrinkable)
            .map(|line| line.text.as_str())
    }

    /// Drops the last item; returns false when there is none.
    pub fn shrink(&mut self) -> bool {
        let Some(index) = self.lines.iter().rposition(|line| line.shrinkable) else {
            return false;
        };
        let line = self.lines.remove(index);
        if let Some(footer) = self.footer.as_mut().filter(|footer| **footer > index) {
            *footer -= 1;
        }
        self.chars -= line.chars + usize::from(!self.lines.is_empty());
        self.items -= 1;
        self.hidden += 1;
        true
    }

    /// Drops items from the end until the section fits in `max` characters (or has none left).
    pub fn shrink_to(&mut self, max: usize) {
        while self.char_len() > max && self.shrink() {}
    }

    /// Length of [`Section::render`] in characters, without rendering.
    pub fn char_len(&self) -> usize {
        match self.hidden {
            0 => self.chars,
            hidden => self.chars + usize::from(!self.lines.is_empty()) + hidden_line_chars(hidden),
        }
    }

    /// The section's text, lines joined by newlines, no trailing newline.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(self.chars + 32);
        let footer = self.footer.unwrap_or(self.lines.len());
        let hidden = (self.hidden > 0).then(|| hidden_line(self.hidden));
        let (body, closing) = self.lines.split_at(footer.min(self.lines.len()));
        let texts = body
            .iter()
            .map(|line| line.text.as_str())
            .chain(hidden.as_deref())
            .chain(closing.iter().map(|line| line.text.as_str()));
        for (index, text) in texts.enumerate() {
            if index > 0 {
                out.push('\n');
            }
            out.push_str(text);
        }
        out
    }
}

fn hidden_line(hidden: usize) -> String {
    format!("  (+{hidden} more not shown)")
}

/// `hidden_line(hidden).chars().count()` for `hidden` ≥ 1, without formatting: composing asks
/// after every dropped item.
fn hidden_line_chars(hidden: usize) -> usize {
    "  (+ more not shown)".len() + hidden.ilog10() as usize + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_item_is_the_last_droppable_line() {
        let mut section = Section::items("Heading:".into());
        assert_eq!(section.last_item(), None);
        section.push_item("one".into());
        section.push_item("two".into());
        section.push_footer("pointer".into());
        assert_eq!(section.last_item(), Some("two"));
        section.shrink();
        assert_eq!(section.last_item(), Some("one"));
    }

    #[test]
    fn the_hidden_line_length_matches_its_text() {
        for hidden in [1, 9, 10, 99, 100, 12_345, usize::MAX] {
            assert_eq!(
                hidden_line_chars(hidden),
                hidden_line(hidden).chars().count()
            );
        }
    }

    fn sample() -> Section {
        let mut section = Section::items("Heading:".into());
        section.push_item("  - one".into());
        section.push_item("  - twö".into());
        section.push_fixed("footer".into());
        section
    }

    #[test]
    fn the_count_of_dropped_items_comes_before_the_footer() {
        let mut section = Section::items("Heading:".into());
        section.push_item("  - one".into());
        section.push_item("  - two".into());
        section.push_footer("Full text: /p".into());
        assert!(section.shrink());
        assert_eq!(
            section.render(),
            "Heading:\n  - one\n  (+1 more not shown)\nFull text: /p"
        );
        assert_eq!(section.char_len(), section.render().encode_utf16().count());
    }

    #[test]
    fn measures_what_it_renders() {
        let mut section = sample();
        assert_eq!(section.char_len(), section.render().encode_utf16().count());
        while section.shrink() {
            assert_eq!(section.char_len(), section.render().encode_utf16().count());
        }
    }

    #[test]
    fn shrinks_items_from_the_end_and_counts_them() {
        let mut section = sample();
        assert!(section.shrink());
        assert_eq!(
            section.render(),
            "Heading:\n  - one\nfooter\n  (+1 more not shown)"
        );
        assert!(section.shrink());
        assert!(!section.shrink());
        assert_eq!(section.render(), "Heading:\nfooter\n  (+2 more not shown)");
    }

    #[test]
    fn reports_the_keys_that_survive() {
        let mut section = Section::items("Heading:".into());
        section.push_keyed_item("a".into(), "id_a".into());
        section.push_keyed_item("b".into(), "id_b".into());
        section.shrink();
        assert_eq!(section.keys().collect::<Vec<_>>(), vec!["id_a"]);
    }

    #[test]
    fn a_fixed_section_cannot_shrink() {
        let mut section = Section::fixed(vec!["a".into(), "b".into()]);
        assert!(!section.can_shrink());
        assert!(!section.shrink());
        assert_eq!(section.render(), "a\nb");
    }
}
