//! Proof that the validation-layer setup works: VK_LAYER_KHRONOS_validation (new enough to know
//! VK_EXT_device_generated_commands) accepts a valid indirect-commands layout without a single
//! message, and reports the specific VUID for each deliberately invalid one.
//!
//! Why both halves: "zero messages" alone would also pass with a layer that is silently not
//! loaded or does not know the extension; the invalid layouts show the layer is in the call
//! chain and checks this extension's rules. Each invalid case breaks exactly one rule so the
//! expected VUID is unambiguous.
//!
//! Run under the layer with `.ci/with-validation.sh target/debug/deps/vvl_smoke-…`; on a host
//! without the layer these tests print `SKIP` unless `DGCC_VALIDATION=1`.

mod vvl;

use ash::vk;
use std::io::Write;
use vvl::ext_dgc::{LayoutCreateInfo, LayoutToken, TOKEN_DISPATCH};
use vvl::{Message, Validated};

/// A compute pipeline layout with one 4-byte push constant, as the push-constant token needs.
struct PipelineLayout<'a> {
    ctx: &'a Validated,
    handle: vk::PipelineLayout,
    range: vk::PushConstantRange,
}

impl<'a> PipelineLayout<'a> {
    fn new(ctx: &'a Validated) -> Self {
        let range = vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: 4 };
        let ranges = [range];
        let info = vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges);
        // SAFETY: valid device and create info.
        let handle = unsafe { ctx.device.create_pipeline_layout(&info, None) }.expect("vkCreatePipelineLayout");
        Self { ctx, handle, range }
    }
}

impl Drop for PipelineLayout<'_> {
    fn drop(&mut self) {
        // SAFETY: created on this device, not in use.
        unsafe { self.ctx.device.destroy_pipeline_layout(self.handle, None) };
    }
}

fn describe(messages: &[Message]) -> String {
    messages.iter().map(|m| format!("\n  [{:?}] {}: {}", m.severity, m.id_name, m.text)).collect()
}

fn setup(test: &str) -> Option<(Validated, vvl::ext_dgc::LayoutFns)> {
    let ctx = vvl::or_skip(test, Validated::new())?;
    let fns = vvl::ext_dgc::LayoutFns::load(&ctx.instance, &ctx.device)
        .expect("vkCreate/DestroyIndirectCommandsLayoutEXT resolve on a device with the extension enabled");
    let _ = writeln!(std::io::stderr(), "{test}: {}", ctx.description);
    Some((ctx, fns))
}

#[test]
fn valid_layout_draws_no_validation_message() {
    let Some((ctx, fns)) = setup("valid_layout_draws_no_validation_message") else { return };
    let layout = PipelineLayout::new(&ctx);
    // [PUSH_CONSTANT u32 @0][DISPATCH VkDispatchIndirectCommand @4], 16-byte stride.
    let tokens = [LayoutToken::push_constant(&layout.range, 0), LayoutToken::action(TOKEN_DISPATCH, 4)];
    let info = LayoutCreateInfo::new(vk::ShaderStageFlags::COMPUTE, 16, layout.handle, &tokens);
    assert_eq!(fns.create_and_destroy(&info), vk::Result::SUCCESS);
    drop(layout);
    // From vkCreateInstance to vkDestroyInstance: not one message.
    let messages = ctx.finish();
    assert!(messages.is_empty(), "expected no validation messages, got:{}", describe(&messages));
}

/// Creates the layout and returns what the layer said about that call alone.
fn messages_for(ctx: &Validated, fns: &vvl::ext_dgc::LayoutFns, info: &LayoutCreateInfo) -> (vk::Result, Vec<Message>) {
    ctx.take_messages();
    let result = fns.create_and_destroy(info);
    (result, ctx.take_messages())
}

fn assert_reports(case: &str, result: vk::Result, messages: &[Message], vuid: &str) {
    assert!(
        messages.iter().any(|m| m.id_name == vuid && m.severity == vk::DebugUtilsMessageSeverityFlagsEXT::ERROR),
        "{case}: expected an error with {vuid} (result {result:?}), got:{}",
        describe(messages)
    );
    // The layer stops an invalid call before the driver sees it.
    assert_eq!(result, vk::Result::ERROR_VALIDATION_FAILED_EXT, "{case}");
    let matched = messages.iter().find(|m| m.id_name == vuid).map_or("", |m| m.text.as_str());
    let first_line = matched.lines().next().unwrap_or_default();
    let _ = writeln!(std::io::stderr(), "  {case}: {vuid}: {first_line}");
}

#[test]
fn invalid_layouts_report_their_vuid() {
    let Some((ctx, fns)) = setup("invalid_layouts_report_their_vuid") else { return };
    let layout = PipelineLayout::new(&ctx);
    let compute = vk::ShaderStageFlags::COMPUTE;

    // The action token must be the last one.
    let tokens = [LayoutToken::action(TOKEN_DISPATCH, 0), LayoutToken::push_constant(&layout.range, 12)];
    let (result, messages) = messages_for(&ctx, &fns, &LayoutCreateInfo::new(compute, 16, layout.handle, &tokens));
    assert_reports(
        "dispatch before push constant",
        result,
        &messages,
        "VUID-VkIndirectCommandsLayoutCreateInfoEXT-pTokens-11100",
    );

    // DISPATCH requires shaderStages == COMPUTE.
    let graphics = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
    let tokens = [LayoutToken::action(TOKEN_DISPATCH, 0)];
    let (result, messages) =
        messages_for(&ctx, &fns, &LayoutCreateInfo::new(graphics, 12, vk::PipelineLayout::null(), &tokens));
    assert_reports(
        "dispatch with graphics stages",
        result,
        &messages,
        "VUID-VkIndirectCommandsLayoutCreateInfoEXT-pTokens-11105",
    );

    // Token offsets must be 4-byte aligned.
    let tokens = [LayoutToken::push_constant(&layout.range, 0), LayoutToken::action(TOKEN_DISPATCH, 6)];
    let (result, messages) = messages_for(&ctx, &fns, &LayoutCreateInfo::new(compute, 20, layout.handle, &tokens));
    assert_reports(
        "unaligned dispatch offset",
        result,
        &messages,
        "VUID-VkIndirectCommandsLayoutTokenEXT-offset-11125",
    );

    // And the valid layout right after, on the same device: nothing.
    let tokens = [LayoutToken::push_constant(&layout.range, 0), LayoutToken::action(TOKEN_DISPATCH, 4)];
    let (result, messages) = messages_for(&ctx, &fns, &LayoutCreateInfo::new(compute, 16, layout.handle, &tokens));
    assert_eq!(result, vk::Result::SUCCESS);
    assert!(messages.is_empty(), "valid layout after invalid ones:{}", describe(&messages));
}
