//! Recall at the prompt on the recall set (`tests/fixtures/recall/`): nDCG@3, precision and
//! the false-injection rate, on its tune and held-out halves, for carryover's calibrated
//! recall and for plain rankings beside it.
//!
//! `cargo bench --bench recall` prints the Markdown table of docs/benchmarks.md for the tune
//! half and the held-out sets measured once and compared on since (`seen`: the first held-out
//! half; `seen2` to `seen4`: `prompts-fresh.json` to `prompts-fresh3.json`), with the ranking's
//! ceiling: its best three on exactly the prompts with something relevant. `-- --heldout` adds
//! the next held-out set once one is built (`HELD_OUT`; none is left now): measure it once,
//! when tuning is done.
//! `cargo bench --bench recall -- --fit` fits the calibration on the tune half only (never
//! reading the held-out labels) and prints the constants for `domain/recall/calibration.rs`.
//! `cargo bench --bench recall -- --minilm FILE` adds full all-MiniLM-L6-v2's rankings, from
//! the similarities `tools/recall/full_minilm.py` writes; `-- --cross-encoder FILE` a
//! cross-encoder's, alone and added to carryover's ranking, from the scores
//! `tools/recall/cross_encoder.py` writes.

use std::collections::HashMap;

use carryover::application::recall_signals;
use carryover::domain::project::{Project, ProjectId};
use carryover::domain::recall::{
    Calibration, FEATURES, MAX_RECALLED, Signals, features, prompt_query, select,
};
use carryover::domain::retrieval::{ProjectQuery, StoredVectors, content_hash};
use carryover::domain::scope::Visibility;
use carryover::domain::seed::{Learning, LearningKind, Timestamp};
use carryover::infrastructure::BuiltinEmbedder;
use serde_json::Value;

const LEARNINGS: &str = include_str!("../tests/fixtures/recall/learnings.json");
const PROMPTS: &str = include_str!("../tests/fixtures/recall/prompts.json");
const PROMPTS_FRESH: &str = include_str!("../tests/fixtures/recall/prompts-fresh.json");
const PROMPTS_FRESH2: &str = include_str!("../tests/fixtures/recall/prompts-fresh2.json");
const PROMPTS_FRESH3: &str = include_str!("../tests/fixtures/recall/prompts-fresh3.json");
/// The split measured once by `--heldout` and never tuned on, dumped or shown otherwise, when
/// one is left.
const HELD_OUT: Option<&str> = None;
const PROJECTS: &str = include_str!("../tests/fixtures/recall/projects.json");

/// One prompt, its candidates' signals and their grades.
struct Case {
    id: String,
    split: String,
    /// Why the gate silenced the prompt, if it did.
    silenced: bool,
    /// The visible learnings' ids, signals and grades, in one order.
    ids: Vec<String>,
    signals: Vec<Signals>,
    grades: Vec<u8>,
    query_terms: usize,
    /// Every grade of the prompt (for the ideal DCG).
    all_grades: Vec<u8>,
}

#[derive(Debug, Default, Clone, Copy)]
struct Figures {
    ndcg: f64,
    precision: f64,
    false_injection: f64,
    injected: usize,
    prompts: usize,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|arg| arg == "--list") {
        return;
    }
    let cases = cases();
    if args.iter().any(|arg| arg == "--fit") {
        fit(&cases);
        return;
    }
    if let Some(path) = args
        .iter()
        .position(|arg| arg == "--dump")
        .and_then(|at| args.get(at + 1))
    {
        dump(&cases, path);
        return;
    }
    let minilm = scores_file(&args, "--minilm");
    let cross_encoder = scores_file(&args, "--cross-encoder");
    println!("| method | split | prompts | nDCG@3 | precision | false injections | injected |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    let mut splits: Vec<(&str, &[&str])> = vec![
        ("tune", &["tune"]),
        ("seen", &["heldout"]),
        ("seen2", &["fresh"]),
        ("seen3", &["fresh2"]),
        ("seen4", &["fresh3"]),
        // Every part measured once, pooled: the estimate the README gives beside each part's.
        ("seen, pooled", &["heldout", "fresh", "fresh2", "fresh3"]),
    ];
    let held_out = HELD_OUT.map(|stored| [stored]);
    if args.iter().any(|arg| arg == "--heldout") {
        match &held_out {
            Some(stored) => splits.push(("heldout", stored)),
            None => eprintln!("every set has been measured: no held-out set is left"),
        }
    }
    for &(split, stored) in &splits {
        let part: Vec<&Case> = cases
            .iter()
            .filter(|c| stored.contains(&c.split.as_str()))
            .collect();
        let calibrated = evaluate(&part, |case| {
            if case.silenced {
                return Vec::new();
            }
            select(
                &case.signals,
                case.query_terms,
                &Calibration::BUILT_IN,
                |_| false,
            )
            .iter()
            .map(|r| r.index)
            .collect()
        });
        row("carryover recall (calibrated)", split, calibrated);
        // The ranking's ceiling: its best three on exactly the prompts with something relevant,
        // as if the gate and the threshold never erred.
        let oracle = evaluate(&part, |case| oracle_gate(case, |_| 0.0));
        row("carryover ranking, oracle gate", split, oracle);
        let always = evaluate(&part, |case| top(&case.signals, |s| s.similarity, None));
        row("built-in model, always 3", split, always);
        if let Some(minilm) = &minilm {
            let similarity = |case: &Case, i: usize| minilm[&case.id][&case.ids[i]];
            let always = evaluate(&part, |case| top_by(case, |i| similarity(case, i), None));
            row("full MiniLM, always 3", split, always);
            for floor in [0.3, 0.35, 0.4, 0.45, 0.5] {
                let floored = evaluate(&part, |case| {
                    top_by(case, |i| similarity(case, i), Some(floor))
                });
                row(&format!("full MiniLM, floor {floor}"), split, floored);
            }
        }
        if let Some(scores) = &cross_encoder {
            let log_odds = |case: &Case, i: usize| logit(scores[&case.id][&case.ids[i]]);
            let always = evaluate(&part, |case| top_by(case, |i| log_odds(case, i), None));
            row("cross-encoder, always 3", split, always);
            for weight in [0.1, 0.25, 0.5, 1.0, 2.0] {
                let fused = evaluate(&part, |case| {
                    oracle_gate(case, |i| weight * log_odds(case, i))
                });
                let method = format!("carryover ranking + {weight} × cross-encoder, oracle gate");
                row(&method, split, fused);
            }
        }
    }
}

/// `{prompt: {learning: score}}` from the file named after `flag`, if given.
fn scores_file(args: &[String], flag: &str) -> Option<HashMap<String, HashMap<String, f64>>> {
    let path = args
        .iter()
        .position(|arg| arg == flag)
        .and_then(|at| args.get(at + 1))?;
    let text = std::fs::read_to_string(path).expect("the scores file");
    // The tool's first line may be a package banner.
    let json = &text[text.find('{').expect("a JSON object")..];
    Some(serde_json::from_str(json).expect("{prompt: {learning: score}}"))
}

/// The log-odds of a probability, held finite at 0 and 1 (far beyond what an `f32`
/// probability tells apart, so no two distinct ones tie).
fn logit(probability: f64) -> f64 {
    let p = probability.clamp(1e-12, 1.0 - 1e-12);
    (p / (1.0 - p)).ln()
}

/// The best three by carryover's calibrated log-odds plus `extra`, on exactly the prompts with
/// something relevant, as if the gate and the threshold never erred: the ranking's ceiling.
fn oracle_gate(case: &Case, extra: impl Fn(usize) -> f64) -> Vec<usize> {
    if case.all_grades.is_empty() {
        return Vec::new();
    }
    let features = features(&case.signals, case.query_terms);
    let score =
        |i: usize| logit(f64::from(Calibration::BUILT_IN.probability(&features[i]))) + extra(i);
    let mut order: Vec<usize> = (0..features.len()).collect();
    order.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
    order.truncate(MAX_RECALLED);
    order
}

fn row(method: &str, split: &str, f: Figures) {
    println!(
        "| {method} | {split} | {} | {:.2} | {:.2} | {:.0} % | {} |",
        f.prompts,
        f.ndcg,
        f.precision,
        f.false_injection * 100.0,
        f.injected
    );
}

/// The best three by `score`, above `floor` when given.
fn top(signals: &[Signals], score: impl Fn(&Signals) -> f32, floor: Option<f32>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..signals.len())
        .filter(|&i| floor.is_none_or(|f| score(&signals[i]) >= f))
        .collect();
    order.sort_by(|&a, &b| score(&signals[b]).total_cmp(&score(&signals[a])));
    order.truncate(MAX_RECALLED);
    order
}

fn top_by(case: &Case, score: impl Fn(usize) -> f64, floor: Option<f64>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..case.ids.len())
        .filter(|&i| floor.is_none_or(|f| score(i) >= f))
        .collect();
    order.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
    order.truncate(MAX_RECALLED);
    order
}

fn dcg(gains: impl Iterator<Item = u8>) -> f64 {
    gains
        .enumerate()
        .map(|(rank, gain)| f64::from(gain) / (rank as f64 + 2.0).log2())
        .sum()
}

/// nDCG@3 over the prompts with something relevant (nothing recalled scores 0), precision
/// over everything recalled (grade 1 or 2 counts), false injections over the prompts with
/// nothing relevant.
fn evaluate(cases: &[&Case], choose: impl Fn(&Case) -> Vec<usize>) -> Figures {
    let (mut ndcg, mut relevant_prompts, mut injected, mut hits, mut empty, mut false_inj) =
        (0.0, 0usize, 0usize, 0usize, 0usize, 0usize);
    for case in cases {
        let chosen = choose(case);
        injected += chosen.len();
        hits += chosen.iter().filter(|&&i| case.grades[i] > 0).count();
        if case.all_grades.is_empty() {
            empty += 1;
            false_inj += usize::from(!chosen.is_empty());
            continue;
        }
        let mut ideal = case.all_grades.clone();
        ideal.sort_unstable_by(|a, b| b.cmp(a));
        let ideal = dcg(ideal.into_iter().take(MAX_RECALLED));
        ndcg += dcg(chosen.iter().map(|&i| case.grades[i])) / ideal;
        relevant_prompts += 1;
    }
    Figures {
        ndcg: ndcg / relevant_prompts.max(1) as f64,
        precision: if injected == 0 {
            0.0
        } else {
            hits as f64 / injected as f64
        },
        false_injection: false_inj as f64 / empty.max(1) as f64,
        injected,
        prompts: cases.len(),
    }
}

/// Every prompt with the signals carryover computes for its visible learnings.
fn cases() -> Vec<Case> {
    let learnings: Vec<Value> = serde_json::from_str(LEARNINGS).unwrap();
    let prompts: Vec<Value> = [PROMPTS, PROMPTS_FRESH, PROMPTS_FRESH2, PROMPTS_FRESH3]
        .iter()
        .flat_map(|text| serde_json::from_str::<Vec<Value>>(text).unwrap())
        .collect();
    let projects: Vec<Value> = serde_json::from_str(PROJECTS).unwrap();
    let repo_of: HashMap<&str, &str> = projects
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["repo"].as_str().unwrap()))
        .collect();
    let scope_id = |scope: &str| {
        ProjectId::from_remote(&format!("https://github.com/{}", repo_of[scope]))
            .unwrap()
            .as_str()
            .to_owned()
    };
    let at = Timestamp::parse("2026-11-01T00:00:00Z").unwrap();
    let seed: Vec<(LearningKind, Learning)> = learnings
        .iter()
        .map(|l| {
            let kind = LearningKind::parse(l["type"].as_str().unwrap()).unwrap();
            let mut learning = Learning::new(
                l["id"].as_str().unwrap().to_owned(),
                l["content"].as_str().unwrap().to_owned(),
                "recall set".to_owned(),
                at,
                true,
            );
            let scope = l["scope"].as_str().unwrap();
            learning.project = (scope != "global").then(|| scope_id(scope));
            (kind, learning)
        })
        .collect();
    let embedder = BuiltinEmbedder::compiled();
    let mut stored = StoredVectors::builder();
    for (_, learning) in &seed {
        stored.insert(
            &learning.id,
            content_hash(&learning.content),
            &embedder.embed_one(&learning.content),
        );
    }
    let stored = stored.finish();
    let names: Vec<String> = projects
        .iter()
        .map(|p| {
            p["repo"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    prompts
        .iter()
        .map(|p| {
            let project_key = p["project"].as_str().unwrap();
            let spec = projects.iter().find(|j| j["id"] == project_key).unwrap();
            let repo = spec["repo"].as_str().unwrap();
            let root =
                std::path::PathBuf::from(format!("/home/u/{}", repo.rsplit('/').next().unwrap()));
            let project = Project::new(
                root.clone(),
                root,
                ProjectId::from_remote(&format!("https://github.com/{repo}")).unwrap(),
            );
            let visibility = Visibility::new(&project, names.clone());
            let visible: Vec<(LearningKind, &Learning)> = seed
                .iter()
                .filter(|(_, l)| visibility.admits(l))
                .map(|(k, l)| (*k, l))
                .collect();
            let relevant: HashMap<String, u8> = p["relevant"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(id, grade)| (id.clone(), grade.as_u64().unwrap() as u8))
                .collect();
            let context = ProjectQuery {
                name: project.name.clone(),
                branch: spec["branch_example"].as_str().map(str::to_owned),
                recent_commits: spec["recent_commits_example"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap().to_owned())
                    .collect(),
                ..ProjectQuery::default()
            }
            .text();
            let prompt = p["prompt"].as_str().unwrap();
            let ids: Vec<String> = visible.iter().map(|(_, l)| l.id.clone()).collect();
            let grades = ids
                .iter()
                .map(|id| relevant.get(id).copied().unwrap_or(0))
                .collect();
            let (silenced, signals, query_terms) = match prompt_query(prompt) {
                Ok(query) => {
                    let found = pollster::block_on(recall_signals(
                        &embedder,
                        &stored,
                        &visible,
                        |l| visibility.is_own(l),
                        &query,
                        &context,
                    ))
                    .unwrap();
                    (false, found.signals, found.query_terms)
                }
                Err(_) => {
                    // Rankings that ignore the gate still need signals.
                    let query = carryover::domain::recall::PromptQuery {
                        text: prompt.to_owned(),
                        content_words: 0,
                    };
                    let found = pollster::block_on(recall_signals(
                        &embedder,
                        &stored,
                        &visible,
                        |l| visibility.is_own(l),
                        &query,
                        &context,
                    ))
                    .unwrap();
                    (true, found.signals, found.query_terms)
                }
            };
            Case {
                id: p["id"].as_str().unwrap().to_owned(),
                split: p["split"].as_str().unwrap().to_owned(),
                silenced,
                ids,
                signals,
                grades,
                query_terms,
                all_grades: relevant.values().copied().collect(),
            }
        })
        .collect()
}

/// The grade a pair needs to count as relevant when fitting.
const MIN_POSITIVE_GRADE: u8 = 2;

/// The harmonic mean of nDCG@3 and precision: an operating point that recalls nothing is
/// worth nothing, however precise.
fn balance(f: Figures) -> f64 {
    if f.ndcg + f.precision == 0.0 {
        0.0
    } else {
        2.0 * f.ndcg * f.precision / (f.ndcg + f.precision)
    }
}

/// Fits the calibration on the tune half: weighted logistic regression (relevant pairs
/// weighted up to balance the classes, L2-regularised), then the threshold that maximises
/// the harmonic mean of nDCG@3 and precision with at most 10 % false injections.
fn fit(cases: &[Case]) {
    let tune: Vec<&Case> = cases.iter().filter(|c| c.split == "tune").collect();
    let mut rows: Vec<([f32; FEATURES], f32)> = Vec::new();
    for case in tune.iter().filter(|c| !c.silenced) {
        for (row, grade) in features(&case.signals, case.query_terms)
            .iter()
            .zip(&case.grades)
        {
            rows.push((
                *row,
                if *grade >= MIN_POSITIVE_GRADE {
                    1.0
                } else {
                    0.0
                },
            ));
        }
    }
    let positives = rows.iter().filter(|(_, y)| *y > 0.0).count() as f32;
    let positive_weight = (rows.len() as f32 - positives) / positives;
    let (mut weights, mut bias) = ([0f32; FEATURES], 0f32);
    let (rate, l2) = (0.2f32, 0.01f32);
    for _ in 0..3_000 {
        let (mut gradient, mut gradient_bias) = ([0f32; FEATURES], 0f32);
        for (x, y) in &rows {
            let z = bias + weights.iter().zip(x).map(|(w, v)| w * v).sum::<f32>();
            let p = 1.0 / (1.0 + (-z.clamp(-30.0, 30.0)).exp());
            let error = (p - y) * if *y > 0.0 { positive_weight } else { 1.0 };
            for (g, v) in gradient.iter_mut().zip(x) {
                *g += error * v;
            }
            gradient_bias += error;
        }
        let n = rows.len() as f32;
        for (w, g) in weights.iter_mut().zip(gradient) {
            *w -= rate * (g / n + l2 * *w);
        }
        bias -= rate * gradient_bias / n;
    }
    println!("weights: {weights:?}\nbias: {bias}");
    let mut best: Option<(f32, Figures)> = None;
    println!("| threshold | nDCG@3 | precision | false injections | injected |");
    for step in 0..=40 {
        let threshold = 0.5 + step as f32 * 0.0125;
        let calibration = Calibration {
            weights,
            bias,
            threshold,
        };
        let figures = evaluate(&tune, |case| {
            if case.silenced {
                return Vec::new();
            }
            select(&case.signals, case.query_terms, &calibration, |_| false)
                .iter()
                .map(|r| r.index)
                .collect()
        });
        println!(
            "| {threshold:.4} | {:.3} | {:.3} | {:.0} % | {} |",
            figures.ndcg,
            figures.precision,
            figures.false_injection * 100.0,
            figures.injected
        );
        let better = best.is_none_or(|(_, b)| balance(figures) > balance(b));
        if figures.false_injection <= 0.10 && better {
            best = Some((threshold, figures));
        }
    }
    if let Some((threshold, figures)) = best {
        println!("chosen threshold {threshold:.4}: {figures:?}");
    }
}

/// Writes the features and grades of every prompt measured already as JSON, for trying a
/// model outside Rust. The held-out prompts are never written.
fn dump(cases: &[Case], path: &str) {
    let rows: Vec<Value> = cases
        .iter()
        .filter(|c| Some(c.split.as_str()) != HELD_OUT)
        .map(|case| {
            serde_json::json!({
                "id": case.id,
                "split": case.split,
                "silenced": case.silenced,
                "ids": case.ids,
                "grades": case.grades,
                "all_grades": case.all_grades,
                "features": features(&case.signals, case.query_terms),
            })
        })
        .collect();
    std::fs::write(path, serde_json::to_string(&rows).unwrap()).expect("the dump file");
}
