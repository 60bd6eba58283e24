// MhcaEngine's state objects (mhca_engine_state.cuh): what each clears after allocation and the
// kernels' views of it.

#include "cuda/kernels/mhca_row_journal.cuh"
#include "cuda/mhca_engine_state.cuh"
#include "cuda/util/cuda_check.cuh"

namespace clusterlens::cuda::mhca {
namespace {

template <typename T>
void fill(DeviceBuffer<T>& buffer, int value, cudaStream_t s) {
    if (buffer.size() > 0) CL_CUDA_TRY(cudaMemsetAsync(buffer.data(), value, buffer.bytes(), s));
}

}  // namespace

void ClusterState::clear(cudaStream_t s) {
    fill(scatter, 0, s);
    // The rescan pass stages every row's metric and scaled parts, also for rows whose metric is the
    // identity and never written, and ignores those values. Zeroed once here, those loads read defined
    // memory (compute-sanitizer initcheck).
    fill(metric, 0, s);
    fill(scaled, 0, s);
}

ClusterView ClusterState::view() {
    ClusterView v{};
    v.x = x.data();
    v.size = size.data();
    v.pos = pos.data();
    v.id = id.data();
    v.birth = birth.data();
    v.group = group.data();
    v.mode = mode.data();
    v.identity = identity.data();
    v.alive = alive.data();
    v.mu = mu.data();
    v.metric = metric.data();
    v.scaled = scaled.data();
    v.scatter = scatter.data();
    v.nmf = nmf.data();
    v.weight = weight.data();
    v.members = members.data();
    v.start = start.data();
    v.perm = perm.data();
    v.pointSlot = pointSlot.data();
    v.moved = temp.data();
    return v;
}

void NearestRowState::clear(cudaStream_t s) {
    // resolveRow loads a row's whole runner-up list at once, entries past its count included, and
    // ignores those values; zeroed once here, the loads read defined memory.
    for (DeviceBuffer<int>* b : {&runSlot, &runPos, &runBirth}) fill(*b, 0, s);
    fill(runKey, 0, s);
}

NearestRowView NearestRowState::view() {
    NearestRowView v{};
    v.nn = nn.data();
    v.nnKey = nnKey.data();
    v.nnBefore = nnBefore.data();
    v.runKey = runKey.data();
    v.runSlot = runSlot.data();
    v.runPos = runPos.data();
    v.runBirth = runBirth.data();
    v.runCount = runCount.data();
    v.runBound = runBound.data();
    return v;
}

void MergeLogState::clear(cudaStream_t s) {
    for (DeviceBuffer<int>* b : {&halt, &mergeCount, &shiftCount}) fill(*b, 0, s);
}

MergeLogView MergeLogState::view() {
    MergeLogView v{};
    v.step = step.data();
    v.groups = groups.data();
    v.mergeCount = mergeCount.data();
    v.outA = outA.data();
    v.outB = outB.data();
    v.outHeight = outHeight.data();
    v.outSize = outSize.data();
    v.outGroup = outGroup.data();
    v.halt = halt.data();
    v.haltStep = haltStep.data();
    v.shiftCount = shiftCount.data();
    v.shiftTime = shiftTime.data();
    v.shiftGroup = shiftGroup.data();
    v.shiftAmount = shiftAmount.data();
    v.shiftMaxBefore = shiftMaxBefore.data();
    return v;
}

void MergeScratchState::clear(cudaStream_t s) {
    fill(counters, 0, s);
    fill(rescanCount, 0, s);
    fill(spec, 0xff, s);  // merge -1: none
}

MergeScratchView MergeScratchState::view() {
    MergeScratchView v{};
    v.rescanRows = rescanRows.data();
    v.rescanCount = rescanCount.data();
    v.partials = partials.data();
    v.counters = counters.data();
    v.spec = spec.data();
    v.specArea = specArea.data();
    v.newDist = newDist.data();
    v.extreme = extreme.data();
    return v;
}

VisitedListView VisitedListState::view(int length, bool identity) {
    return VisitedListView{list.data(), length, identity ? 1 : 0};
}

void PersistentState::clear(cudaStream_t s, bool profiled) {
    fill(rowCounter, 0, s);
    fill(cmdSpec, 0xff, s);        // merge -1: none
    fill(growthNearest, 0xff, s);  // any value
    fill(arrive, 0, s);
    fill(shiftSeen, 0, s);
    fill(rowJournal, 0xff, s);  // stamps -1
    fill(persistentProfile, 0, s);
    if (profiled) fill(blockProfile, 0, s);
}

void PersistentState::fillArgs(PersistentArgs& args, bool profiled) {
    args.arrive = arrive.data();
    args.shiftSeen = shiftSeen.data();
    args.journal = rowJournal.data();
    args.spec = cmdSpec.data();
    args.specPayload = cmdSpecPayload.data();
    args.lazyPart = lazyPart.data();
    args.blockPart = blockPart.data();
    args.aPart = aPart.data();
    args.minPart = minPart.data();
    args.rowPart = rowPart.data();
    args.rowCounter = rowCounter.data();
    args.rowFinal = rowFinal.data();
    args.status = status.data();
    args.profile = profiled ? persistentProfile.data() : nullptr;
    args.blockProfile = profiled ? blockProfile.data() : nullptr;
}

GrowthShared PersistentState::growth(int stride) {
    return GrowthShared{growthPlans.data(),   growthNearest.data(), stride,           growthIntents.data(),
                        growthRecords.data(), growthPayload.data(), growthStop.data()};
}

std::size_t PersistentState::journalDoubles(std::size_t n) {
    return rowJournalDoubles(static_cast<int>(n));
}

void GroupPhaseState::clear(cudaStream_t s) {
    for (DeviceBuffer<int>* b : {&mergeCounts, &shiftCounts, &rescanCounts, &failed}) fill(*b, 0, s);
}

void GroupPhaseState::fillArgs(GroupPhaseArgs& args, bool profiled) {
    args.listStart = start.data();
    args.steps = steps.data();
    args.mergeCounts = mergeCounts.data();
    args.shiftCounts = shiftCounts.data();
    args.rescanCounts = rescanCounts.data();
    args.next = next.data();
    args.failed = failed.data();
    args.nanoseconds = profiled ? nanoseconds.data() : nullptr;
    args.rowParts = rowParts.data();
}

}  // namespace clusterlens::cuda::mhca
