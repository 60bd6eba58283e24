#include "commands.hpp"

namespace clusterlens::cli {

const std::vector<Command>& commands() {
    static const std::vector<Command> list = {
        {"info", infoCommand, "info INPUT [--json]"},
        {"hca", hcaCommand,
         "hca INPUT --linkage mahalanobis|single|complete|average|weighted|centroid|median|ward\n"
         "          [--variant full|centroid] [--threshold 0.5] [--subthreshold mahal|mahal0|euclid|euclid-mahal]\n"
         "          [--normalize] [--apriori FILE | --apriori-kmeans K] [--fix-monotonic eps|halfway] [--profile]\n"
         "          [--gpus all|N (spread the a-priori groups of centroid MHCA over the GPUs; same merges)]\n"
         "          --out LINKAGE.csv"},
        {"heights", heightsCommand,
         "heights (LINKAGE.csv [--linkage-format scipy|thesis|hclust] | --session FILE --linkage NAME)\n"
         "          --out HEIGHTS.csv"},
        {"kmeans", kMeansCommand,
         "kmeans INPUT -k K [--seed S] [--max-iterations M] --labels-out LABELS.csv\n"
         "          [--gpus all|N (spread the points over the GPUs; same result as one)]"},
        {"vat", vatCommand,
         "vat INPUT [--metric euclidean|sqeuclidean|manhattan|cosine | --precomputed] --out ORDER.csv\n"
         "          [--image OUT.png [--size 1024] [--ivat] [--pixel representative|mean]\n"
         "           [--colormap grey|viridis|magma] [--reverse] [--clip 1,99] [--gamma 1]]\n"
         "          [--cut-k K [--labels-out LABELS.csv]] [--sample N [--sample-groups K] [--sample-seed S]]\n"
         "          [--order-from LINKAGE.csv]"},
        {"dpc", dpcCommand,
         "dpc INPUT [--dc X | --dc-percent 2 [--dc-method exact|sampled]] [--kernel cutoff|gaussian]\n"
         "          [--index auto|none|grid] --out DPC.csv\n"
         "          [--peaks-top K | --peaks i,j,...] [--labels-out LABELS.csv] [--halo]\n"
         "          [--dc-sweep LO:HI:STEPS (percentiles; with peaks: their persistence across dc)]\n"
         "          [--gpus all|N (spread the GPU passes over the machine's GPUs; same result as one)]"},
        {"compare", compareCommand, "compare LABELS_A.csv LABELS_B.csv [--matching hungarian|greedy] [--json]"},
        {"export", exportCommand,
         "export INPUT [--labels LABELS.csv [--label-name NAME]]\n"
         "          [--session FILE [--population NAME [--all-events]] [--labeling NAME]]\n"
         "          --out OUT.fcs|OUT.csv|OUT.h5ad (OUT.h5ad: a copy of INPUT.h5ad with categorical obs columns)"},
        {"compare-heights", compareHeightsCommand,
         "compare-heights LINKAGE_A.csv LINKAGE_B.csv [--linkage-format scipy|thesis|hclust] [--out DIFF.csv] "
         "[--json]"},
        {"session", sessionCommand,
         "session info FILE [--json]\n"
         "  session get FILE (--linkage NAME --out LINKAGE.csv | --labeling NAME --out LABELS.csv |\n"
         "          --population NAME --out MEMBERS.csv | --dpc NAME --out DPC.csv | --vat NAME --out ORDER.csv)"},
        {"population", populationCommand,
         "population add FILE --name NAME [--parent NAME] (--labeling NAME --clusters 1,3 | --indices MEMBERS.csv)\n"
         "          [--colour #rrggbb] [--definition TEXT] [--json]"},
#ifdef CLUSTERLENS_HAVE_PLOT
        {"plot", plotCommand,
         "plot dendrogram LINKAGE.csv [--cut-k K [--min-cluster-size M]] [--leaves A:B] [--heights C:D]\n"
         "          [--collapse ID,...] [--threshold-marks T] |\n"
         "          decision DPC.csv [--peaks-top K | --peaks i,j] [--rho-min R --delta-min D] |\n"
         "          gamma DPC.csv | heights LINKAGE_A.csv LINKAGE_B.csv | contingency LABELS_A.csv LABELS_B.csv |\n"
         "          scatter INPUT --x F1 --y F2 [--labels LABELS.csv] [--xlim A:B] [--ylim C:D] |\n"
         "          vat INPUT [--image ivat|vat] [--cut-k K] [--rows A:B] [--cols C:D] [--colormap C]\n"
         "          [--pixel representative|mean] [--reverse] [--gamma G] [--clip LOW,HIGH] [--levels LO,HI] |\n"
         "          sizes LINKAGE.csv --cut-k K [--min-cluster-size M] | merge-heights LINKAGE.csv [--cut-k K] |\n"
         "          populations INPUT --session FILE [--name POPULATION] [--markers a,b] |\n"
         "          histograms [INPUT] --session FILE --marker M [--populations A,B]\n"
         "          From a session instead of the files: --session FILE --name NAME (a linkage for dendrogram,\n"
         "          sizes and merge-heights; a DPC result for decision and gamma; a VAT order for vat; a labeling\n"
         "          or population for scatter; --name A --name2 B two linkages for heights, two labelings or\n"
         "          --name COMPARISON for contingency) [--population P: the result must be of P; scatter: P only]\n"
         "          vat and dendrogram: [--strip WHAT]... up to 3 colour strips, WHAT = LABELS.csv, or with\n"
         "          --session a labeling NAME or populations; marker:NAME (dendrogram: with --session or --heatmap)\n"
         "          Only a part: --xlim/--ylim in data units, --rows/--cols in ordered positions 0..n (the VAT\n"
         "          image is square: both span as many), --leaves in leaf units and --heights in merge heights\n"
         "          --out FIG.png|tif|svg|pdf [--width W --height H (px) | --width-mm W --height-mm H] [--dpi D]\n"
         "          [--title T] [--x-label T] [--y-label T] [--palette tableau|okabe-ito|viridis] [--font-scale F]\n"
         "          [--legend auto|none|right|top|bottom|left] [--background white|transparent]"},
#endif
    };
    return list;
}

}  // namespace clusterlens::cli
