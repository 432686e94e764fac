//! Standing rules, preferences and project facts in German, Spanish and French: the same
//! families as the English rules (a word for every occasion, "du solltest", "stelle sicher",
//! "wir nutzen", "siempre", "no uses", "désormais", "on utilise"), each with its own
//! question and task words. Spanish and French are covered by unit cases only: the dev set
//! has no messages in them.

use std::sync::LazyLock;

use regex::Regex;

use super::cues::{ALWAYS_OR_NEVER, BUG_REPORT, PERSISTS, regex};
use super::rules::{candidate, stand_alone, words};
use super::{Candidate, Family};
use crate::domain::seed::LearningKind;

/// Words that open a sentence without changing what it says.
static FILLER: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?i)^((ok|okay|ja|also|und|dann|bitte|y|vale|bueno|pues|et|alors|donc|bon)[,.!]?\s+)+")
});

/// A request in question form: "Kannst du bitte …?", "¿Puedes …?", "Peux-tu …?".
static POLITE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)^(kannst du|könntest du|würdest du|kann ottie|¿?puedes|¿?podrías|peux-tu|pourrais-tu|pouvez-vous|pourriez-vous)\b",
    )
});

static PLEASE: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\b(bitte|por favor|s'il te plaît|s'il vous plaît)\b"));

static QUESTION: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)^(¿|was|wie|warum|wieso|weshalb|wo|wer|welche\w*|wann|ist|sind|gibt es|hast du|",
        r"habt ihr|soll ich|sollen wir|können wir|kann ich|qué|cómo|por qué|dónde|cuándo|quién|",
        r"cuál|est-ce que|pourquoi|comment|quand|où|qui|quel\w*|combien)\b",
    ))
});

/// Words that tie an instruction to the task at hand.
static TASK_SCOPE: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)\b(jetzt|gerade|heute|morgen|gleich|später|diesmal|dieses mal|vorerst|erstmal|",
        r"noch nicht|hoy|mañana|luego|ahora mismo|esta vez|por ahora|todavía no|",
        r"aujourd'hui|demain|plus tard|cette fois|pour l'instant|pas encore)\b",
    ))
});

/// "Immer" in a description, not a rule: "immer noch" (still), "immer wieder" (again and
/// again), "immer mehr" (more and more), "wie immer" (as usual).
static DESCRIPTIVE_ALWAYS: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(immer (noch|wieder|mehr|weniger)|noch immer|wie immer|für immer|hat immer|ist immer)\b",
    )
});

/// Signs that a sentence instructs: "bitte", a modal of obligation, an imperative verb.
static INSTRUCTED: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)\b(bitte|soll|sollst|solltest|sollte|sollen|muss|musst|müssen|verwende|nutze|",
        r"benutze|schreibe?|mache?|gib|antworte|frag|melde|halte|speichere|dokumentiere|",
        r"usa|utiliza|escribe|haz|pon|añade|responde|guarda|documenta|",
        r"utilise|écris|fais|mets|ajoute|réponds|garde|documente)\b",
    ))
});

/// Signs that a sentence speaks to the assistant or for the team: "du", "wir", "tu".
static ADDRESSED: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\b(du|dir|dich|dein\w*|wir|tú|tu|toi|nous|on)\b"));

/// The assistant told what it should do: "du solltest den Voice-Server nutzen".
static SHOULD: LazyLock<Regex> = LazyLock::new(|| regex(r"(?i)\b(solltest|sollst|musst)\b"));

/// What makes "du solltest …" a rule rather than the next step ("du solltest die Datei
/// löschen"): a correction of how the assistant works ("…, solltest aber …", "statt") or a
/// kind of occasion ("bei langen Aufgaben", "nach jedem Commit").
static SHOULD_STANDING: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(aber|stattdessen|statt|anstatt|sondern|lange[nr]?|jede[mnrs]?|alle[nm]?|bei der|nach der|wenn es)\b",
    )
});

/// "Du solltest jetzt …", "du musst noch …": about the next step only.
static SHOULD_NEXT: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(solltest|sollst|musst) (jetzt|gerade|erst|noch|hier|heute|mal|zuerst)\b|\b(vielleicht|eventuell|wohl)\b",
    )
});

static ENSURE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(stelle? sicher|stellt sicher|sicherstellen|sicher gehen|sorge dafür|achte (bitte )?darauf|asegúrate|assure-toi|veille à)\b",
    )
});

/// A rule keyed to what the user does: "nachdem ich dir einen längeren Input gegeben habe",
/// "wenn ich Englisch spreche => Jarvis".
static USER_EVENT: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(nachdem ich|sobald ich|immer wenn ich|jedes mal,? wenn ich|cuando yo|cada vez que yo|quand je|chaque fois que je)\b",
    )
});
static USER_CONDITION_MAPS: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\bwenn ich\b[^;]*(=>|->|→)"));

static REMEMBER: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)^(merke? dir|merk dir|vergiss nicht|denk daran|denke daran|recuerda|ten en cuenta|no olvides|rappelle-toi|souviens-toi|n'oublie pas|note bien),?( que| dass| das)?\s+(?P<rest>.+)$",
    )
});

static ASK_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(frag(e)? (mich )?(vorher|zuerst|vorab|immer)|pregúntame antes|consúltame antes|demande-moi (avant|d'abord))\b",
    )
});

static PREFER: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)^(ich (bevorzuge|präferiere|mag lieber|hätte lieber|arbeite lieber)|(yo )?prefiero|je préfère)\s+\S",
    )
});

/// A team's practice or the project's stack: "wir nutzen Bun", "usamos Postgres", "on
/// déploie sur Fly".
static WE_USE: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)^(wir (nutzen|verwenden|benutzen|deployen|hosten|arbeiten mit|setzen auf|sind auf)|",
        r"wir werden (nur |ausschließlich |kein\w* |nicht |immer )\S.{0,60}\b(nutzen|verwenden|benutzen)|",
        r"(nosotros )?(usamos|utilizamos|trabajamos con|desplegamos|alojamos|usaremos|vamos a usar)|",
        r"(on|nous) (utilise|utilisons|déploie|déployons|héberge|hébergeons|travaille avec|",
        r"travaillons avec|va utiliser|allons utiliser))\b",
    ))
});

/// "Always …" or "never …" first: "Siempre escribe …", "Jamais de force-push", "Nie …".
static ALWAYS_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?i)^(siempre|nunca|jamás|toujours|jamais|ne jamais|immer|nie|niemals|stets)\s+\S")
});

/// Negative imperatives: "no uses …", "n'utilise pas …", "verwende kein …".
static DONT: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)^(no (uses|utilices|hagas|escribas|añadas|agregues|pongas|cambies|toques|subas|",
        r"borres|elimines|incluyas|crees|ejecutes|mezcles)|",
        r"(n'|ne )\w+ (pas|jamais|plus)|",
        r"(verwende|nutze|benutze|schreib|schreibe|mach|mache|füge|committe|pushe)\w* (nie|kein\w*|nicht))\b",
    ))
});

/// Judges a sentence in German, Spanish or French.
pub(super) fn classify(sentence: &str) -> Option<Candidate> {
    let text = FILLER.replace(sentence.trim(), "");
    let text = text.as_ref();
    if words(text) < 3 {
        return None;
    }
    let rule =
        |kind, confidence, family| Some(candidate(kind, stand_alone(text), confidence, family));
    let lasting = !BUG_REPORT.is_match(text)
        && (PERSISTS.is_match(text)
            || (ALWAYS_OR_NEVER.is_match(text) && !DESCRIPTIVE_ALWAYS.is_match(text)));
    let task_scoped = TASK_SCOPE.is_match(&PERSISTS.replace_all(text, ""));
    if POLITE.is_match(text) {
        let standing = PERSISTS.is_match(text)
            || USER_EVENT.is_match(text)
            || (PLEASE.is_match(text) && lasting);
        return (standing && !task_scoped)
            .then(|| rule(LearningKind::SelfKnowledge, 0.8, Family::Standing))
            .flatten();
    }
    if text.ends_with('?') || QUESTION.is_match(text) || task_scoped {
        return None;
    }
    if let Some(found) = REMEMBER.captures(text) {
        let rest = found.name("rest").map_or("", |m| m.as_str());
        return (words(rest) >= 4).then(|| {
            candidate(
                LearningKind::Insight,
                stand_alone(rest),
                0.8,
                Family::Reminder,
            )
        });
    }
    if ASK_FIRST.is_match(text) {
        return rule(LearningKind::SelfKnowledge, 0.85, Family::Standing);
    }
    if PREFER.is_match(text) && words(text) >= 4 {
        return rule(LearningKind::Pattern, 0.85, Family::Preference);
    }
    if let Some(found) = ENSURE.find(text) {
        // The rule clause starts at "stelle sicher", whatever task came before it in a
        // run-on sentence.
        let clause = &text[found.start()..];
        return lasting.then(|| {
            candidate(
                LearningKind::Pattern,
                stand_alone(clause),
                0.8,
                Family::Standing,
            )
        });
    }
    if SHOULD.is_match(text) && !SHOULD_NEXT.is_match(text) {
        let confidence = if lasting {
            0.85
        } else if SHOULD_STANDING.is_match(text) {
            0.75
        } else {
            0.6
        };
        return rule(LearningKind::SelfKnowledge, confidence, Family::Imperative);
    }
    if USER_CONDITION_MAPS.is_match(text)
        || (USER_EVENT.is_match(text) && INSTRUCTED.is_match(text))
    {
        return rule(LearningKind::Pattern, 0.75, Family::Standing);
    }
    if WE_USE.is_match(text) {
        return rule(LearningKind::Insight, 0.75, Family::ProjectFact);
    }
    if ALWAYS_FIRST.is_match(text) && !BUG_REPORT.is_match(text) {
        return rule(LearningKind::Pattern, 0.8, Family::Imperative);
    }
    if DONT.is_match(text) {
        // As in English, a bare "don't" steers the task at hand as often as it sets a rule.
        let confidence = if lasting { 0.8 } else { 0.6 };
        return rule(LearningKind::Pattern, confidence, Family::Imperative);
    }
    // "Immer" and "nie" also describe ("das Tool hängt nie"); a word naming the future
    // ("künftig") needs only an addressee, they need an instruction.
    let instructs =
        INSTRUCTED.is_match(text) || (PERSISTS.is_match(text) && ADDRESSED.is_match(text));
    (lasting && instructs)
        .then(|| rule(LearningKind::Pattern, 0.8, Family::Standing))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    // German, in the style of the dev set's PAI sessions
    #[case::de_should(
        "du nutzt den lokalen server, solltest aber den cloud server nutzen",
        Family::Imperative
    )]
    #[case::de_should_summary(
        "Du solltest mir am Ende langer Aufgaben eine kurze Zusammenfassung geben.",
        Family::Imperative
    )]
    #[case::de_ensure_future(
        "Verschiebe den Bericht in den neuen Ordner.stelle sicher dass in Zukunft alle Berichte in einem Unterordner landen.",
        Family::Standing
    )]
    #[case::de_polite_always(
        "Kannst du bitte sicher gehen, dass der Stand immer dokumentiert ist?",
        Family::Standing
    )]
    #[case::de_polite_more_often(
        "Kannst du bitte dafür sorgen, dass du dich häufiger mit einem Zwischenstand meldest?",
        Family::Standing
    )]
    #[case::de_polite_user_event(
        "Kannst du mir, nachdem ich dir einen langen Text gegeben habe, kurz bestätigen, was du verstanden hast?",
        Family::Standing
    )]
    #[case::de_mapping(
        "wenn ich englisch schreibe => englische Antwort; wenn ich deutsch schreibe => deutsche Antwort",
        Family::Standing
    )]
    #[case::de_from_now_on(
        "Ab jetzt bitte alle Commits auf Englisch schreiben.",
        Family::Standing
    )]
    #[case::de_never("Niemals direkt auf main pushen.", Family::Imperative)]
    #[case::de_we_use("Wir nutzen pnpm in diesem Repository.", Family::ProjectFact)]
    #[case::de_remember(
        "Merke dir, dass die Staging-Datenbank jeden Sonntag zurückgesetzt wird.",
        Family::Reminder
    )]
    #[case::de_ask_first("Frag mich vorher, bevor du Dateien löschst.", Family::Standing)]
    #[case::de_prefer(
        "Ich bevorzuge kurze Funktionen mit frühen Returns.",
        Family::Preference
    )]
    #[case::de_prefer_loanword("Ich präferiere immer den nachhaltigen Ansatz.", Family::Preference)]
    // Spanish
    #[case::es_always(
        "Siempre escribe los mensajes de commit en inglés.",
        Family::Imperative
    )]
    #[case::es_never("Nunca hagas force-push a main.", Family::Imperative)]
    #[case::es_from_now_on("A partir de ahora usa pnpm en vez de npm.", Family::Standing)]
    #[case::es_dont_ever("No uses emojis en los commits, nunca.", Family::Imperative)]
    #[case::es_we_use("Usamos Postgres 16 en producción.", Family::ProjectFact)]
    #[case::es_prefer(
        "Prefiero funciones pequeñas y sin efectos secundarios.",
        Family::Preference
    )]
    #[case::es_remember(
        "Recuerda que el entorno de pruebas se borra cada domingo.",
        Family::Reminder
    )]
    #[case::es_ask_first("Pregúntame antes de borrar cualquier rama.", Family::Standing)]
    // French
    #[case::fr_always("Toujours lancer les tests avant de committer.", Family::Imperative)]
    #[case::fr_from_now_on(
        "Désormais, écris les messages de commit en anglais.",
        Family::Standing
    )]
    #[case::fr_never("N'utilise jamais de force-push sur main.", Family::Imperative)]
    #[case::fr_we_use(
        "On utilise Docker Compose pour le développement local.",
        Family::ProjectFact
    )]
    #[case::fr_prefer("Je préfère les petites fonctions pures.", Family::Preference)]
    #[case::fr_remember(
        "N'oublie pas que la base de staging est réinitialisée chaque dimanche.",
        Family::Reminder
    )]
    #[case::fr_ask_first("Demande-moi avant de supprimer une branche.", Family::Standing)]
    fn recognises_rules_in_german_spanish_and_french(
        #[case] sentence: &str,
        #[case] family: Family,
    ) {
        let found = classify(sentence).expect("a candidate");
        assert_eq!(found.family, family, "{sentence}");
        assert!(found.confidence >= 0.65, "{sentence}: {}", found.confidence);
    }

    #[rstest]
    #[case::de_question("Was ist der Status unserer Implementierung?")]
    #[case::de_task("Erstelle bitte ein Architekturdiagramm für das System.")]
    #[case::de_polite_task("Kannst du bitte die aktuelle Nachricht wiederholen?")]
    #[case::de_still("Die Stimme ist immer noch stumm.")]
    #[case::de_next_step("Du solltest jetzt die Tests laufen lassen.")]
    #[case::de_should_task("Du solltest die Datei löschen.")]
    #[case::de_tomorrow("Wir werden morgen das neue Modell nutzen.")]
    #[case::de_ensure_once("Stelle sicher, dass das alte Setup nicht verloren geht.")]
    #[case::de_we_wanted("Wir wollten außerdem ein neues Modell nehmen.")]
    #[case::de_description("Dies hat immer was mit Befragungen zu tun.")]
    #[case::es_question("¿Puedes revisar los logs?")]
    #[case::es_task("Revisa el archivo de configuración y corrige el error.")]
    #[case::es_dont_once("No uses la segunda opción.")]
    #[case::fr_question("Pourquoi le build échoue sur la CI ?")]
    #[case::fr_task("Corrige le test qui échoue.")]
    #[case::fr_dont_once("N'utilise pas ce fichier.")]
    fn leaves_german_spanish_and_french_task_talk(#[case] sentence: &str) {
        let found = classify(sentence);
        assert!(
            found.as_ref().is_none_or(|c| c.confidence < 0.65),
            "{sentence}: {found:?}"
        );
    }
}
