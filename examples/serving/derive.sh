#!/bin/sh
# Derives the chat service of this example (capplan.5 §10.4) from public
# measurements; see README.md for the sources, the model and the
# assumptions. Two steps:
#
#   sh derive.sh classes TRACE.csv > data/classes.csv
#       Azure's LLM conversation trace (arrived_at, num_prefill_tokens,
#       num_decode_tokens): requests split at 1024 prompt tokens into
#       `short` and `long`; per class the requests per second over the
#       trace's hour and the mean prompt and output tokens.
#   sh derive.sh service data/classes.csv data/splitwise_llama2_70b.csv > chat.yaml
#       Splitwise's timings of Llama-2-70B: per configuration (GPU type,
#       tensor parallelism) and class, the requests/s one replica serves
#       at batch 8 within a 20 s latency target, and the daily load.
#
# The first step reads the trace (not in the repository: see README.md);
# the second reads only files of this folder, and tests/suite_services.sh
# checks that it reproduces chat.yaml byte for byte.
set -eu
BATCH=8        # requests a replica serves at once
TARGET_S=20    # a request's latency at most: its batch's prefill and its decode
SPLIT=1024     # prompt tokens: short up to here, long above

case "${1:-}" in
classes)
    awk -F, -v cut="$SPLIT" '
        NR > 1 {
            c = $2 <= cut ? "short" : "long"
            n[c]++; p[c] += $2; d[c] += $3
        }
        END {
            print "class,requests_per_s,prompt_tokens,output_tokens"
            split("short long", cs, " ")
            for (i = 1; i <= 2; i++) {
                k = cs[i]
                printf "%s,%.4f,%.0f,%.0f\n", k, n[k] / 3600, p[k] / n[k], d[k] / n[k]
            }
        }' "$2"
    ;;
service)
    awk -F, -v batch="$BATCH" -v target="$TARGET_S" '
        # Splitwise rows: prefill time at batch 1 by prompt size, and the
        # time per output token at the batch size (prompt 512), means of
        # the repetitions, in ms
        FILENAME == ARGV[2] && FNR > 1 {
            cfg = $2 ":" $11
            if ($4 == 1) { pn[cfg ":" $3]++; pt[cfg ":" $3] += $8 }
            if ($4 == batch && $3 == 512) { tn[cfg]++; tt[cfg] += $9 }
            next
        }
        FILENAME == ARGV[1] && FNR > 1 {
            cls[++nc] = $1; rate[nc] = $2; prompt[nc] = $3; out[nc] = $4
            next
        }
        # the measured prompt size nearest a class mean (512 or 2048)
        function size(p) { return p <= 1024 ? 512 : 2048 }
        END {
            ncfg = split("a100-80gb:2 a100-80gb:4 h100-80gb:2", cfgs, " ")
            name["a100-80gb"] = "A100-80GB"; name["h100-80gb"] = "H100-80GB"
            print "# The chat service of examples/serving, written by derive.sh (README.md):"
            printf "# Llama-2-70B at batch %d, each request within %d s; load = the Azure\n", batch, target
            print "# conversation trace hour as the daily mean, times 1 + 0.6 cos(2 pi (h - 15) / 24)."
            print "services:"
            print "  - name: chat"
            print "    classes:"
            for (i = 1; i <= nc; i++) {
                printf "      - name: %s  # mean %d prompt, %d output tokens\n", cls[i], prompt[i], out[i]
                printf "        load: ["
                for (h = 0; h < 24; h++) {
                    m = 1 + 0.6 * cos(2 * 3.141592653589793 * (h - 15) / 24)
                    printf "%s%.2f", h ? ", " : "", rate[i] * m
                }
                print "]"
            }
            print "    replicas:"
            for (c = 1; c <= ncfg; c++) {
                split(cfgs[c], hw, ":")
                printf "      - {accelerator: %s, count: %d, cpus: %d, memory_gb: %d, rate: {", name[hw[1]], hw[2], 12 * hw[2], 120 * hw[2]
                sep = ""
                for (i = 1; i <= nc; i++) {
                    k = cfgs[c] ":" size(prompt[i])
                    secs = (batch * pt[k] / pn[k] + out[i] * tt[cfgs[c]] / tn[cfgs[c]]) / 1000
                    if (secs <= target) {
                        printf "%s%s: %.3f", sep, cls[i], batch / secs
                        sep = ", "
                    }
                }
                printf "}}  # tensor parallel %d\n", hw[2]
            }
            print "    min_replicas: 1"
            print "    start_cost: 2.0     # assumed: ~3 min of 70B weights loading on the replica"
            print "    unserved_penalty: 0.05"
        }' "$2" "$3"
    ;;
*)
    echo "usage: sh derive.sh classes TRACE.csv | service CLASSES.csv SPLITWISE.csv" >&2
    exit 2
    ;;
esac
