//! The VUIDs a rule enforces besides its own: where two valid-usage rules of different calls
//! state the same condition (the feature at layout creation, at execute and at preprocess), one
//! check decides all of them and one code reports them.
//!
//! Why a table beside the rules and not a second field of [`Rule`]: a rule's primary VUID is
//! the call where the mistake is first made; the others are where it would surface again. They
//! are needed by `dgcc explain`, the diagnostics index, the rendered note and the differential
//! check against the validation layers (which must see that dgcc reports a layer VUID under
//! another code), and this keeps them in one place that reads as a list.

use super::Rule;

/// `(code, the VUIDs it also enforces)`, in code order.
pub(super) static ALSO: &[(&str, &[&str])] = &[
    ("E0105", &["VUID-VkIndirectCommandsLayoutCreateInfoEXT-pTokens-11094"]),
    // An empty list has no action token as its last token either; the layers report that.
    ("E0109", &["VUID-VkIndirectCommandsLayoutCreateInfoEXT-pTokens-11100"]),
    ("E0120", &["VUID-VkGeneratedCommandsInfoEXT-shaderStages-requiredbitmask"]),
    ("E0121", &["VUID-VkIndirectCommandsPushConstantTokenEXT-updateRange-parameter"]),
    ("E0122", &["VUID-VkIndirectExecutionSetShaderInfoEXT-shaderCount-arraylength"]),
    (
        "E0203",
        &[
            "VUID-vkCmdExecuteGeneratedCommandsEXT-supportedIndirectCommandsShaderStages-11061",
            "VUID-vkCmdPreprocessGeneratedCommandsEXT-supportedIndirectCommandsShaderStages-11088",
        ],
    ),
    ("E0204", &["VUID-VkGeneratedCommandsInfoEXT-maxSequenceCount-11067"]),
    ("E0213", &["VUID-VkGeneratedCommandsMemoryRequirementsInfoEXT-maxDrawCount-11146"]),
    (
        "E0214",
        &[
            "VUID-vkCreateIndirectExecutionSetEXT-deviceGeneratedCommands-11013",
            "VUID-vkCmdExecuteGeneratedCommandsEXT-deviceGeneratedCommands-11059",
            "VUID-vkCmdPreprocessGeneratedCommandsEXT-deviceGeneratedCommands-11087",
        ],
    ),
    // Without VK_EXT_descriptor_heap the push-data token types are no values of the enum at all.
    ("E0216", &["VUID-VkIndirectCommandsLayoutTokenEXT-type-parameter"]),
    (
        "E0586",
        &[
            "VUID-VkGraphicsPipelineCreateInfo-layout-07987",
            "VUID-VkComputePipelineCreateInfo-layout-07987",
            "VUID-VkComputePipelineCreateInfo-layout-10069",
        ],
    ),
];

impl Rule {
    /// The VUIDs this rule enforces besides [`Rule::vuid`].
    pub fn also(&self) -> &'static [&'static str] {
        ALSO.iter().find(|(c, _)| *c == self.code).map(|(_, v)| *v).unwrap_or(&[])
    }

    /// Every VUID the rule enforces: its own first, then [`Rule::also`].
    pub fn vuids(&self) -> Vec<&'static str> {
        self.vuid.into_iter().chain(self.also().iter().copied()).collect()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_entry_names_a_rule_with_a_vuid_and_new_vuids() {
        for (code, also) in super::ALSO {
            let r = crate::rules::lookup(code).unwrap_or_else(|| panic!("{code} is not a rule"));
            assert!(r.vuid.is_some(), "{code}: a rule with other VUIDs has its own first");
            for v in *also {
                assert!(v.starts_with("VUID-"), "{code}: {v}");
                assert_ne!(Some(*v), r.vuid, "{code}: {v} is already its own VUID");
            }
        }
        for w in super::ALSO.windows(2) {
            assert!(w[0].0 < w[1].0, "ALSO is in code order");
        }
    }
}
