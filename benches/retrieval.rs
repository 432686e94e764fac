//! Retrieval quality on the relevance dev set (`tests/fixtures/relevance/devset.json`):
//! nDCG@5 and recall@5 of each ranking, averaged over the project contexts.
//!
//! `cargo bench --bench retrieval` prints a Markdown table for docs/benchmarks.md. With
//! `CARRYOVER_BENCH_EMBEDDER_URL` and `CARRYOVER_BENCH_EMBEDDER_MODEL` set (an Ollama, LM
//! Studio or OpenAI-compatible server), the HTTP embedder is measured too.

use carryover::domain::ports::Embedder;
use carryover::domain::retrieval::{Bm25, LEXICAL_WEIGHT, ProjectQuery, fuse_weighted};
use carryover::infrastructure::{BuiltinEmbedder, HttpEmbedder};
use serde_json::Value;

const DEVSET: &str = include_str!("../tests/fixtures/relevance/devset.json");
const CUTOFF: usize = 5;
/// The lexical weights tried for fusion.
const WEIGHTS: [f32; 6] = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8];

struct Context {
    query: String,
    relevant: Vec<(usize, f64)>,
}

fn main() {
    if std::env::args().any(|arg| arg == "--list") {
        return;
    }
    let devset: Value = serde_json::from_str(DEVSET).expect("devset is JSON");
    let learnings = devset["learnings"].as_array().unwrap();
    let ids: Vec<&str> = learnings
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    let texts: Vec<String> = learnings
        .iter()
        .map(|l| l["content"].as_str().unwrap().to_owned())
        .collect();
    let dates: Vec<&str> = learnings
        .iter()
        .map(|l| l["confirmedAt"].as_str().unwrap())
        .collect();
    let contexts: Vec<Context> = devset["contexts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let strings = |key: &str| {
                c[key]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_owned())
                    .collect()
            };
            let query = ProjectQuery {
                name: c["project"].as_str().unwrap().to_owned(),
                branch: c["branch"].as_str().map(str::to_owned),
                recent_commits: strings("recent_commits"),
                in_progress: strings("in_progress"),
                next_steps: strings("next_steps"),
            };
            let relevant = c["relevant"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(id, grade)| {
                    (
                        ids.iter().position(|known| known == id).expect("known id"),
                        grade.as_f64().unwrap(),
                    )
                })
                .collect();
            Context {
                query: query.text(),
                relevant,
            }
        })
        .collect();

    let bm25 = Bm25::new(texts.iter().map(String::as_str));
    let bm25 = &bm25;
    let mut recency: Vec<usize> = (0..texts.len()).collect();
    recency.sort_by(|a, b| dates[*b].cmp(dates[*a]));

    println!(
        "dev set: {} learnings, {} contexts\n",
        texts.len(),
        contexts.len()
    );
    println!("| ranking | nDCG@5 | recall@5 |");
    println!("|---|---:|---:|");
    report("recency (most recently confirmed)", &contexts, |_| {
        recency.clone()
    });
    report("BM25", &contexts, |query| order_by(&bm25.scores(query)));
    for dims in [256, 128] {
        let embedder = BuiltinEmbedder::new(Some(dims)).unwrap();
        let vectors: Vec<Vec<f32>> = texts.iter().map(|t| embedder.embed_one(t)).collect();
        let similarity = |query: &str| -> Vec<f32> {
            let q = embedder.embed_one(query);
            vectors
                .iter()
                .map(|v| v.iter().zip(&q).map(|(a, b)| a * b).sum())
                .collect()
        };
        report(&format!("built-in {dims}-d"), &contexts, |query| {
            order_by(&similarity(query))
        });
        if dims == 256 {
            floor_table(&contexts, &similarity);
            println!();
        }
        let fused = |query: &str, weight: f32| -> Vec<usize> {
            fuse_weighted(&similarity(query), &bm25.scores(query), weight)
                .iter()
                .map(|r| r.index)
                .collect()
        };
        for weight in WEIGHTS {
            let name = format!("built-in {dims}-d + BM25 (lexical weight {weight})");
            report(&name, &contexts, |query| fused(query, weight));
        }
        let name = format!("built-in {dims}-d + BM25 (weight chosen leaving each context out)");
        cross_validated(&name, &contexts, &WEIGHTS, fused);
    }
    http_rows(&texts, &contexts, bm25);
}

/// Similarities of relevant and irrelevant (context, learning) pairs, at a few percentiles:
/// what the similarity floor is tuned from.
fn floor_table(contexts: &[Context], similarity: &dyn Fn(&str) -> Vec<f32>) {
    let (mut relevant, mut irrelevant) = (Vec::new(), Vec::new());
    for context in contexts {
        for (index, score) in similarity(&context.query).into_iter().enumerate() {
            if context.relevant.iter().any(|(i, _)| *i == index) {
                relevant.push(score);
            } else {
                irrelevant.push(score);
            }
        }
    }
    let percentile = |values: &mut Vec<f32>, p: f64| {
        values.sort_by(f32::total_cmp);
        values[((values.len() - 1) as f64 * p) as usize]
    };
    println!("\n| similarity | p5 | p25 | p50 | p75 | p95 |\n|---|---:|---:|---:|---:|---:|");
    for (name, values) in [
        ("relevant pairs", &mut relevant),
        ("irrelevant pairs", &mut irrelevant),
    ] {
        let row: Vec<String> = [0.05, 0.25, 0.5, 0.75, 0.95]
            .iter()
            .map(|p| format!("{:.2}", percentile(values, *p)))
            .collect();
        println!("| {name} | {} |", row.join(" | "));
    }
}

/// The HTTP embedder's rows, when a server is configured for the bench.
fn http_rows(texts: &[String], contexts: &[Context], bm25: &Bm25<'_>) {
    let (Ok(url), Ok(model)) = (
        std::env::var("CARRYOVER_BENCH_EMBEDDER_URL"),
        std::env::var("CARRYOVER_BENCH_EMBEDDER_MODEL"),
    ) else {
        println!("\n(HTTP embedder not measured: set CARRYOVER_BENCH_EMBEDDER_URL and _MODEL)");
        return;
    };
    let embedder = HttpEmbedder::new(&url, &model, None, std::time::Duration::from_secs(30));
    let Ok(vectors) = pollster::block_on(embedder.embed(texts)) else {
        println!("\n(HTTP embedder at {url} did not answer)");
        return;
    };
    let similarity = |query: &str| -> Vec<f32> {
        let q = pollster::block_on(embedder.embed(&[query.to_owned()]))
            .unwrap()
            .remove(0);
        vectors
            .iter()
            .map(|v| v.iter().zip(&q).map(|(a, b)| a * b).sum())
            .collect()
    };
    report(&format!("HTTP {model}"), contexts, |query| {
        order_by(&similarity(query))
    });
    report(
        &format!("HTTP {model} + BM25 (lexical weight {LEXICAL_WEIGHT})"),
        contexts,
        |query| {
            fuse_weighted(&similarity(query), &bm25.scores(query), LEXICAL_WEIGHT)
                .iter()
                .map(|r| r.index)
                .collect()
        },
    );
}

fn order_by(scores: &[f32]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|a, b| scores[*b].total_cmp(&scores[*a]).then(a.cmp(b)));
    order
}

fn report(name: &str, contexts: &[Context], rank: impl Fn(&str) -> Vec<usize>) {
    let scores: Vec<(f64, f64)> = contexts
        .iter()
        .map(|context| evaluate(context, &rank(&context.query)))
        .collect();
    let n = contexts.len() as f64;
    let ndcg: f64 = scores.iter().map(|s| s.0).sum();
    let recall: f64 = scores.iter().map(|s| s.1).sum();
    println!("| {name} | {:.3} | {:.3} |", ndcg / n, recall / n);
}

/// Leave-one-context-out: for each context, the weight that scores best on the others is
/// measured on it. An honest figure for a weight that was tuned on the same set.
fn cross_validated(
    name: &str,
    contexts: &[Context],
    weights: &[f32],
    rank: impl Fn(&str, f32) -> Vec<usize>,
) {
    let table: Vec<Vec<(f64, f64)>> = weights
        .iter()
        .map(|w| {
            contexts
                .iter()
                .map(|c| evaluate(c, &rank(&c.query, *w)))
                .collect()
        })
        .collect();
    let (mut ndcg, mut recall) = (0.0, 0.0);
    for held_out in 0..contexts.len() {
        let training = |row: &Vec<(f64, f64)>| -> f64 {
            row.iter()
                .enumerate()
                .filter(|(i, _)| *i != held_out)
                .map(|(_, s)| s.0)
                .sum()
        };
        let best = (0..weights.len())
            .max_by(|a, b| training(&table[*a]).total_cmp(&training(&table[*b])))
            .expect("weights");
        ndcg += table[best][held_out].0;
        recall += table[best][held_out].1;
    }
    let n = contexts.len() as f64;
    println!("| {name} | {:.3} | {:.3} |", ndcg / n, recall / n);
}

/// nDCG@5 (graded gains `2^g − 1`) and recall@5 of one ranking.
fn evaluate(context: &Context, ranking: &[usize]) -> (f64, f64) {
    let grade = |index: usize| {
        context
            .relevant
            .iter()
            .find(|(i, _)| *i == index)
            .map_or(0.0, |(_, g)| *g)
    };
    let dcg: f64 = ranking
        .iter()
        .take(CUTOFF)
        .enumerate()
        .map(|(pos, i)| (2f64.powf(grade(*i)) - 1.0) / (pos as f64 + 2.0).log2())
        .sum();
    let mut ideal: Vec<f64> = context.relevant.iter().map(|(_, g)| *g).collect();
    ideal.sort_by(|a, b| b.total_cmp(a));
    let idcg: f64 = ideal
        .iter()
        .take(CUTOFF)
        .enumerate()
        .map(|(pos, g)| (2f64.powf(*g) - 1.0) / (pos as f64 + 2.0).log2())
        .sum();
    let found = ranking
        .iter()
        .take(CUTOFF)
        .filter(|i| grade(**i) > 0.0)
        .count();
    (
        dcg / idcg,
        found as f64 / context.relevant.len().min(CUTOFF) as f64,
    )
}
